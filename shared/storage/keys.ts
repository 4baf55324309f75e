/** Live recordings, or the trash of soft-deleted ones. */
export type RecordingBin = 'LIVE' | 'TRASH';

/**
 * Key builders of the single table, one place for every entity's key shape.
 * docs/data-model.md lists them with the access patterns they serve.
 */
export const keys = {
  organization: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'ORG' }),
  user: (userId: string) => ({ PK: `USER#${userId}`, SK: 'USER' }),
  /** Uniqueness guard and lookup of a user by (lower-case) email. */
  userEmail: (email: string) => ({ PK: `EMAIL#${email}`, SK: 'EMAIL' }),
  /** Link from an identity provider's (issuer, subject) to a user. */
  identity: (issuer: string, subject: string) => ({ PK: `IDENTITY#${issuer}#${subject}`, SK: 'IDENTITY' }),
  membership: (orgId: string, userId: string) => ({ PK: `ORG#${orgId}`, SK: `MEMBER#${userId}` }),
  /** GSI1: active members of an org, ordered by email. Present only while the member is active. */
  activeMembersIndex: (orgId: string, email?: string, userId?: string) => ({
    GSI1PK: `ORG#${orgId}#ACTIVE_MEMBERS`,
    ...(email !== undefined ? { GSI1SK: `${email}#${userId}` } : {}),
  }),
  /** One shard of an organization's member search index (shared/storage/member-search.ts), under a partition of its own. */
  memberSearchShard: (orgId: string, shard: number) => ({
    PK: `ORG#${orgId}#MEMBER_SEARCH`,
    SK: `SHARD#${String(shard).padStart(2, '0')}`,
  }),
  /** GSI2: the organizations of a user. */
  userOrganizationsIndex: (userId: string, orgId?: string) => ({
    GSI2PK: `USER#${userId}#ORGS`,
    ...(orgId !== undefined ? { GSI2SK: `ORG#${orgId}` } : {}),
  }),
  /** A member's settings, notifications and counters (profile version, preference count). */
  memberSettings: (orgId: string, userId: string) => ({ PK: `ORG#${orgId}`, SK: `MEMBER#${userId}#SETTINGS` }),
  /** A member's current profile ciphertext. */
  memberProfile: (orgId: string, userId: string) => ({ PK: `ORG#${orgId}`, SK: `MEMBER#${userId}#PROFILE` }),
  /** One row per profile version, zero-padded so versions sort numerically. */
  profileVersion: (orgId: string, userId: string, version: number) => ({
    PK: `ORG#${orgId}`,
    SK: `MEMBER#${userId}#PROFILEV#${String(version).padStart(10, '0')}`,
  }),
  preference: (orgId: string, userId: string, preferenceId: string) => ({
    PK: `ORG#${orgId}`,
    SK: `MEMBER#${userId}#PREF#${preferenceId}`,
  }),
  /** GSI1: a member's preferences by creation time. */
  memberPreferencesIndex: (orgId: string, userId: string, createdAt?: string, preferenceId?: string) => ({
    GSI1PK: `ORG#${orgId}#USER#${userId}#PREFS`,
    ...(createdAt !== undefined ? { GSI1SK: `${createdAt}#${preferenceId}` } : {}),
  }),
  recording: (orgId: string, recordingId: string) => ({ PK: `ORG#${orgId}`, SK: `REC#${recordingId}` }),
  /** A recording's related items (summary, action items, translation, transcript header and chunks). */
  recordingPart: (orgId: string, recordingId: string, part: string) => ({ PK: `ORG#${orgId}`, SK: `REC#${recordingId}#${part}` }),
  /**
   * A recording's translations, under a partition of their own (so that reading the recording
   * with its parts never reads them): per language, a header `<lang>` and its chunks
   * `<lang>#<set>#<index>` (docs/translations.md).
   */
  recordingTranslation: (orgId: string, recordingId: string, sortKey: string) => ({
    PK: `ORG#${orgId}#REC#${recordingId}#TRANSLATIONS`,
    SK: sortKey,
  }),
  /** GSI1: an org's recordings, newest first, in the live list or the trash. */
  recordingsIndex: (orgId: string, bin: RecordingBin, createdAt?: string, recordingId?: string) => ({
    GSI1PK: `ORG#${orgId}#RECS#${bin}`,
    ...(createdAt !== undefined ? { GSI1SK: `${createdAt}#${recordingId}` } : {}),
  }),
  /** How many recordings of an org were created on a UTC day (`YYYY-MM-DD`), live and in the trash (shared/storage/recording-day-counts.ts). */
  recordingDayCount: (orgId: string, day: string) => ({ PK: `ORG#${orgId}#RECORDING_COUNTS`, SK: `DAY#${day}` }),
  /** The same for a UTC month (`YYYY-MM`): a range's full months are read as one item each. */
  recordingMonthCount: (orgId: string, month: string) => ({ PK: `ORG#${orgId}#RECORDING_COUNTS`, SK: `MONTH#${month}` }),
  /**
   * GSI3 (keys only): an organization's live recordings by the UTC day retention counts from
   * (`recording_at`, else `created_at`), oldest first. The retention sweep reads the days past its
   * policy and nothing else (docs/governance.md). Absent on a recording in the trash.
   */
  recordingRetentionIndex: (orgId: string, day?: string, recordingId?: string) => ({
    GSI3PK: `ORG#${orgId}#RETENTION`,
    ...(day !== undefined ? { GSI3SK: `${day}#${recordingId}` } : {}),
  }),
  /** The organization's custom vocabulary (docs/transcript-controls.md, "Vocabulary"): its terms and its state in Transcribe. */
  vocabulary: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'VOCABULARY' }),
  /** The organizations with a retention policy: the daily sweep's one partition to read (SK `ORG#<id>`). */
  retentionPolicy: (orgId?: string) => ({ PK: 'RETENTION_POLICIES', ...(orgId !== undefined ? { SK: `ORG#${orgId}` } : {}) }),
  /**
   * An organization's legal holds, under a partition of their own: a member's hold (`HOLD#USER#<id>`,
   * the hold itself) and one entry per held recording (`HOLD#REC#<id>`; the hold is on the recording
   * item, where deletes see it). One Query lists them all.
   */
  memberLegalHold: (orgId: string, userId: string) => ({ PK: `ORG#${orgId}#LEGAL_HOLDS`, SK: `HOLD#USER#${userId}` }),
  recordingLegalHold: (orgId: string, recordingId: string) => ({ PK: `ORG#${orgId}#LEGAL_HOLDS`, SK: `HOLD#REC#${recordingId}` }),
  legalHolds: (orgId: string) => ({ PK: `ORG#${orgId}#LEGAL_HOLDS` }),
  /** GSI2: one recorder's recordings in an org, newest first. */
  recorderRecordingsIndex: (orgId: string, userId: string, bin: RecordingBin, createdAt?: string, recordingId?: string) => ({
    GSI2PK: `ORG#${orgId}#USER#${userId}#RECS#${bin}`,
    ...(createdAt !== undefined ? { GSI2SK: `${createdAt}#${recordingId}` } : {}),
  }),
  /** A live recording's link under one of its tags, newest first. */
  recordingTagLink: (orgId: string, tagId: string, createdAt?: string, recordingId?: string) => ({
    PK: `ORG#${orgId}#TAG#${tagId}#RECS`,
    ...(createdAt !== undefined ? { SK: `${createdAt}#${recordingId}` } : {}),
  }),
  /**
   * A transcription attempt the sweeper must look at from `dueAt` on (queued or running), under
   * one partition of its own ordered by that time: the sweeper reads what is due, never a Scan.
   */
  transcriptionWatch: (dueAt: string, orgId: string, recordingId: string) => ({
    PK: 'TRANSCRIPTION_WATCH',
    SK: `${dueAt}#${orgId}#${recordingId}`,
  }),
  transcriptionWatchPartition: 'TRANSCRIPTION_WATCH',
  /** An organization's billed transcription minutes in a UTC month (`YYYY-MM`), under its usage partition. */
  transcriptionUsage: (orgId: string, month: string) => ({ PK: `ORG#${orgId}#USAGE`, SK: `MONTH#${month}` }),
  /** An organization's questions asked (Ask) on a UTC day (`YYYY-MM-DD`), under its usage partition. */
  askUsage: (orgId: string, day: string) => ({ PK: `ORG#${orgId}#USAGE`, SK: `ASKS#${day}` }),
  /** One member's billed transcription minutes in a UTC month, beside the organization's (a month's members share the prefix). */
  memberTranscriptionUsage: (orgId: string, month: string, userId: string) => ({
    PK: `ORG#${orgId}#USAGE`,
    SK: `MONTH#${month}#USER#${userId}`,
  }),
  memberTranscriptionUsagePrefix: (month: string) => `MONTH#${month}#USER#`,
  template: (orgId: string, templateId: string) => ({ PK: `ORG#${orgId}`, SK: `TEMPLATE#${templateId}` }),
  /**
   * GSI1: an org's templates in List templates' order, by name (case-insensitive), then id
   * (templateOrderKey). Items written before this key existed carry `<lower name>#<id>`, which does
   * not sort so: the organization's `templates_index_at` says when every one was rewritten.
   */
  templatesIndex: (orgId: string, name?: string, templateId?: string) => ({
    GSI1PK: `ORG#${orgId}#TEMPLATES`,
    ...(name !== undefined ? { GSI1SK: templateOrderKey(name, templateId ?? '') } : {}),
  }),
  /** GSI3 (keys only): the same order, about 150 bytes an entry, to count an org's templates and find where a page starts. */
  templateKeysIndex: (orgId: string, name?: string, templateId?: string) => ({
    GSI3PK: `ORG#${orgId}#TEMPLATES`,
    ...(name !== undefined ? { GSI3SK: templateOrderKey(name, templateId ?? '') } : {}),
  }),
  invite: (orgId: string, inviteId: string) => ({ PK: `ORG#${orgId}`, SK: `INVITE#${inviteId}` }),
  /** GSI1: an org's invites, newest first. */
  invitesIndex: (orgId: string, createdAt?: string, inviteId?: string) => ({
    GSI1PK: `ORG#${orgId}#INVITES`,
    ...(createdAt !== undefined ? { GSI1SK: `${createdAt}#${inviteId}` } : {}),
  }),
  /** Finds an invite by the SHA-256 of its token (the token itself is never stored). */
  inviteToken: (tokenHash: string) => ({ PK: `INVITETOKEN#${tokenHash}`, SK: 'INVITETOKEN' }),
  /** One pending invite per email and organization. */
  inviteEmailGuard: (orgId: string, email: string) => ({ PK: `ORG#${orgId}`, SK: `INVITEEMAIL#${email}` }),
  /** One live secret of an API key, by its SHA-256: the authorizer's one read. */
  apiKeySecret: (keyHash: string) => ({ PK: `APIKEY#${keyHash}`, SK: 'APIKEY' }),
  /** GSI2: a key's current secret by the key's public id (the operator CLI revokes by id alone). */
  apiKeyIdIndex: (keyId: string) => ({ GSI2PK: `APIKEYID#${keyId}`, GSI2SK: 'APIKEY' }),
  apiKeyIdIndexPrefix: 'APIKEYID#',
  /** An API key as the organization manages it: name, scopes, usage, state (never a secret). */
  apiKey: (orgId: string, keyId: string) => ({ PK: `ORG#${orgId}`, SK: `APIKEY#${keyId}` }),
  /** GSI1: every key of an organization, newest first. */
  apiKeysIndex: (orgId: string, createdAt?: string, keyId?: string) => ({
    GSI1PK: `ORG#${orgId}#APIKEYS`,
    ...(createdAt !== undefined ? { GSI1SK: `${createdAt}#${keyId}` } : {}),
  }),
  /** GSI2: one member's personal keys, newest first. */
  memberApiKeysIndex: (orgId: string, userId: string, createdAt?: string, keyId?: string) => ({
    GSI2PK: `ORG#${orgId}#USER#${userId}#APIKEYS`,
    ...(createdAt !== undefined ? { GSI2SK: `${createdAt}#${keyId}` } : {}),
  }),
  tag: (orgId: string, tagId: string) => ({ PK: `ORG#${orgId}`, SK: `TAG#${tagId}` }),
  /**
   * Written in the transaction that deletes a recording or template for good: the stream's
   * REMOVE record of an item cannot say who deleted it, this item's INSERT does (its
   * change stamp). It expires from the table after a while (TTL).
   */
  tombstone: (orgId: string, resource: 'recording' | 'template' | 'webhook', id: string) => ({
    PK: `ORG#${orgId}`,
    SK: `DELETED#${resource}#${id}`,
  }),
  /** Present while a recording is in the trash; its TTL is when the trash's retention runs out. */
  trashTimer: (orgId: string, recordingId: string) => ({ PK: `ORG#${orgId}`, SK: `TRASHTIMER#${recordingId}` }),
  /**
   * One entry of an organization's audit log, under its own partition (never read with the
   * organization's items) and ordered by `<occurred_at>#<event id>`: read backwards, newest first.
   */
  auditEntry: (orgId: string, sortKey: string) => ({ PK: `ORG#${orgId}#AUDIT`, SK: sortKey }),
  auditLog: (orgId: string) => ({ PK: `ORG#${orgId}#AUDIT` }),
  /** GSI1: the audit entries of one actor (a user or an organization API key), same order. Absent when the service acted. */
  auditByActorIndex: (orgId: string, actorId: string, sortKey?: string) => ({
    GSI1PK: `ORG#${orgId}#AUDIT#ACTOR#${actorId}`,
    ...(sortKey !== undefined ? { GSI1SK: sortKey } : {}),
  }),
  /** GSI2: the audit entries of one resource (a member's and their settings' share the user id), same order. */
  auditByResourceIndex: (orgId: string, resourceId: string, sortKey?: string) => ({
    GSI2PK: `ORG#${orgId}#AUDIT#RESOURCE#${resourceId}`,
    ...(sortKey !== undefined ? { GSI2SK: sortKey } : {}),
  }),
  webhook: (orgId: string, webhookId: string) => ({ PK: `ORG#${orgId}`, SK: `WEBHOOK#${webhookId}` }),
  /** Every endpoint of an organization: the sort key prefix on the organization's partition (at most 10 items). */
  webhookPrefix: 'WEBHOOK#',
  /** How many endpoints an organization has: the limit's guard, moved in the transactions that add or remove one. */
  webhookCount: (orgId: string) => ({ PK: `ORG#${orgId}`, SK: 'WEBHOOKCOUNT' }),
  /** One endpoint's deliveries, under a partition of their own, newest first (their ids begin with their creation time). */
  delivery: (orgId: string, webhookId: string, deliveryId: string) => ({
    PK: `ORG#${orgId}#WEBHOOK#${webhookId}`,
    SK: `DELIVERY#${deliveryId}`,
  }),
  deliveries: (orgId: string, webhookId: string) => ({ PK: `ORG#${orgId}#WEBHOOK#${webhookId}`, SKPrefix: 'DELIVERY#' }),
  /** GSI1: one endpoint's deliveries in one status, newest first. */
  deliveriesByStatus: (orgId: string, webhookId: string, status: string, deliveryId?: string) => ({
    GSI1PK: `ORG#${orgId}#WEBHOOK#${webhookId}#DELIVERIES#${status}`,
    ...(deliveryId !== undefined ? { GSI1SK: deliveryId } : {}),
  }),
  /** GSI1: the tags of one member, by name. */
  memberTagsIndex: (orgId: string, userId: string, name?: string, tagId?: string) => ({
    GSI1PK: `ORG#${orgId}#USER#${userId}#TAGS`,
    ...(name !== undefined ? { GSI1SK: `${name.toLowerCase()}#${tagId}` } : {}),
  }),
  /** An erasure of a member (shared/storage/erasures.ts): in the organization's partition, so it outlives the membership. */
  erasure: (orgId: string, erasureId: string) => ({ PK: `ORG#${orgId}`, SK: `ERASURE#${erasureId}` }),
  /** Present while an erasure of this member runs: names it, so a second request finds it. */
  erasureGuard: (orgId: string, userId: string) => ({ PK: `ORG#${orgId}`, SK: `ERASING#${userId}` }),
  /** The log of completed erasures, by user id only, replayed after a backup is restored (ordered by completion). */
  erasureLog: (completedAt: string, erasureId: string) => ({ PK: 'ERASURE_LOG', SK: `${completedAt}#${erasureId}` }),
  erasureLogPartition: 'ERASURE_LOG',
  /** GSI2: a user's identity links, so an erasure finds them without a Scan (links written before it lack it). */
  userIdentitiesIndex: (userId: string, issuer?: string, subject?: string) => ({
    GSI2PK: `USER#${userId}#IDENTITIES`,
    ...(issuer !== undefined ? { GSI2SK: `${issuer}#${subject}` } : {}),
  }),
  /** A member's data exports (docs/governance.md), under a partition of their own per member: one Query lists them. */
  memberExport: (orgId: string, userId: string, exportId?: string) => ({
    PK: `ORG#${orgId}#USER#${userId}#EXPORTS`,
    ...(exportId !== undefined ? { SK: `EXPORT#${exportId}` } : {}),
  }),
};

/**
 * A template's place in List templates' order as a sort key. That order compares lower-case
 * names, then ids, as JavaScript compares strings (UTF-16 code units); DynamoDB compares sort
 * keys by their UTF-8 bytes. So each code unit becomes one character whose UTF-8 sorts as the
 * unit does: below U+D800 itself (ASCII names stay readable), a surrogate U+E000 and up, and
 * U+E000–U+FFFF (which UTF-8 would put before the astral characters surrogates make) an
 * astral character. The name ends with U+0001, below any character a name may hold (names
 * refuse C0 controls but tab, line feed and carriage return; NUL never reaches storage), so a
 * name comes before the longer names it begins, as `#` did not ('a b' < 'a#'). At most 4
 * bytes a unit: a 200-unit name (400 lower-cased, 'İ' becomes two) stays under 1,024 bytes.
 */
export function templateOrderKey(name: string, templateId: string): string {
  return `${sortableUnits(name.toLowerCase())}\u0001${sortableUnits(templateId)}`;
}

function sortableUnits(text: string): string {
  let sortable = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800) sortable += text[i];
    else if (unit < 0xe000) sortable += String.fromCharCode(0xe000 + unit - 0xd800);
    else sortable += String.fromCodePoint(0x10000 + unit - 0xe000);
  }
  return sortable;
}

/** Strips the table's key attributes from an item, leaving the entity's own fields. */
export function withoutKeys<T extends Record<string, unknown>>(
  item: T,
): Omit<T, 'PK' | 'SK' | 'GSI1PK' | 'GSI1SK' | 'GSI2PK' | 'GSI2SK' | 'GSI3PK' | 'GSI3SK'> {
  const { PK: _pk, SK: _sk, GSI1PK: _g1p, GSI1SK: _g1s, GSI2PK: _g2p, GSI2SK: _g2s, GSI3PK: _g3p, GSI3SK: _g3s, ...rest } = item;
  return rest;
}
