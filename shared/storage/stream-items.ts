import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Actor } from '../schemas/event-catalog';
import { ACTOR_KINDS } from '../schemas/event-catalog';
import type { ChangeStamp } from './change-stamp';
import { API_KEY_SORT_KEY, apiKeyFromItem, type ApiKeyRecord } from './api-key-items';
import { erasureFromItem, type ErasureRecord } from './erasure-items';
import { inviteFromItem, type InviteRecord } from './invite-items';
import { itemFields } from './item-fields';
import { memberHoldFromItem, type MemberLegalHold } from './legal-hold-items';
import { memberSettingsFromItem, type MemberSettingsRecord } from './member-settings-items';
import { MEMBER_EXPORT_PARTITION, MEMBER_EXPORT_SORT_KEY, memberExportFromItem, type MemberExport } from './member-export-items';
import { organizationRetentionFromItem, type OrganizationRetention } from './retention-policy-items';
import { membershipFromItem, type Membership } from './membership-items';
import { recordingFromItem, type Recording } from './recording-items';
import { summaryRecordFromItem, type SummaryRecord } from './summary-items';
import { TABLE } from './table-definition';
import { templateFromItem, type TemplateRecord } from './template-items';
import { tombstoneFromItem, type Tombstone } from './tombstones';
import { vocabularyFromItem, type OrgVocabulary } from './transcript-setting-items';
import {
  DELIVERY_PARTITION,
  DELIVERY_SORT_KEY,
  WEBHOOK_SORT_KEY,
  deliveryFromItem,
  webhookFromItem,
  type DeliveryRecord,
  type WebhookRecord,
} from './webhook-items';

/** An item's state on one side of a change, with the stamp of the write that left it so. */
export interface ItemSide<T> {
  value: T;
  stamp?: ChangeStamp;
}

/** One stream record, read as the change of one kind of item the events care about. */
export type ItemChange = { orgId: string; removedByTtl: boolean } & (
  | { kind: 'recording'; before?: ItemSide<Recording>; after?: ItemSide<Recording> }
  | { kind: 'membership'; before?: ItemSide<Membership>; after?: ItemSide<Membership> }
  | { kind: 'memberSettings'; before?: ItemSide<MemberSettingsRecord>; after?: ItemSide<MemberSettingsRecord> }
  | { kind: 'invite'; before?: ItemSide<InviteRecord>; after?: ItemSide<InviteRecord> }
  | { kind: 'template'; before?: ItemSide<TemplateRecord>; after?: ItemSide<TemplateRecord> }
  | { kind: 'tombstone'; before?: ItemSide<Tombstone>; after?: ItemSide<Tombstone> }
  | { kind: 'trashTimer'; recordingId: string; dueAt: string; before?: ItemSide<null>; after?: ItemSide<null> }
  | { kind: 'webhook'; before?: ItemSide<WebhookRecord>; after?: ItemSide<WebhookRecord> }
  | { kind: 'webhookDelivery'; before?: ItemSide<DeliveryRecord>; after?: ItemSide<DeliveryRecord> }
  | { kind: 'apiKey'; before?: ItemSide<ApiKeyRecord>; after?: ItemSide<ApiKeyRecord> }
  | { kind: 'summary'; before?: ItemSide<SummaryRecord>; after?: ItemSide<SummaryRecord> }
  | { kind: 'erasure'; before?: ItemSide<ErasureRecord>; after?: ItemSide<ErasureRecord> }
  | { kind: 'organization'; before?: ItemSide<OrganizationRetention>; after?: ItemSide<OrganizationRetention> }
  | { kind: 'memberLegalHold'; before?: ItemSide<MemberLegalHold>; after?: ItemSide<MemberLegalHold> }
  | { kind: 'memberExport'; before?: ItemSide<MemberExport>; after?: ItemSide<MemberExport> }
  | { kind: 'vocabulary'; before?: ItemSide<OrgVocabulary>; after?: ItemSide<OrgVocabulary> }
);

type Item = Record<string, unknown>;

/** Which items are which, by their keys (shared/storage/keys.ts): only items that are the subject of an event. */
const KINDS: { kind: ItemChange['kind']; sortKey: RegExp }[] = [
  { kind: 'recording', sortKey: /^REC#[^#]+$/ },
  { kind: 'summary', sortKey: /^REC#[^#]+#SUMMARY#[^#]+$/ },
  { kind: 'membership', sortKey: /^MEMBER#[^#]+$/ },
  { kind: 'memberSettings', sortKey: /^MEMBER#[^#]+#SETTINGS$/ },
  { kind: 'invite', sortKey: /^INVITE#[^#]+$/ },
  { kind: 'template', sortKey: /^TEMPLATE#[^#]+$/ },
  { kind: 'tombstone', sortKey: /^DELETED#(recording|template|webhook)#[^#]+$/ },
  { kind: 'trashTimer', sortKey: /^TRASHTIMER#[^#]+$/ },
  { kind: 'webhook', sortKey: WEBHOOK_SORT_KEY },
  { kind: 'apiKey', sortKey: API_KEY_SORT_KEY },
  { kind: 'erasure', sortKey: /^ERASURE#[^#]+$/ },
  { kind: 'organization', sortKey: /^ORG$/ },
  { kind: 'vocabulary', sortKey: /^VOCABULARY$/ },
];

const ORGANIZATION_PARTITION = /^ORG#([^#]+)$/;
/** A member's legal hold lives in the organization's holds partition (keys.memberLegalHold). */
const LEGAL_HOLDS_PARTITION = /^ORG#([^#]+)#LEGAL_HOLDS$/;
const MEMBER_HOLD_SORT_KEY = /^HOLD#USER#[^#]+$/;

/**
 * Reads a stream record (NEW_AND_OLD_IMAGES) as the change of an event-bearing item, or
 * undefined for any other item (index rows, counters, guards, parts, audit entries...).
 * `removedByTtl`: DynamoDB's TTL removed the item (AWS marks such records with the
 * dynamodb.amazonaws.com service identity; the local TTL emulator marks an item just
 * before it removes it, as it cannot set that identity).
 */
export function itemChangeOf(record: DynamoDBRecord): ItemChange | undefined {
  const keys = record.dynamodb?.Keys && unmarshall(record.dynamodb.Keys as Record<string, AttributeValue>);
  const partition = typeof keys?.PK === 'string' ? keys.PK : '';
  const sortKey = typeof keys?.SK === 'string' ? keys.SK : undefined;
  // Deliveries live under their endpoint's partition; every other item of interest under its organization's.
  const delivery = DELIVERY_PARTITION.exec(partition);
  const holds = LEGAL_HOLDS_PARTITION.exec(partition);
  // A member's exports live under a partition of their own (keys.memberExport).
  const exportsOf = MEMBER_EXPORT_PARTITION.exec(partition);
  const orgId = delivery?.[1] ?? holds?.[1] ?? exportsOf?.[1] ?? ORGANIZATION_PARTITION.exec(partition)?.[1];
  const kind = delivery
    ? sortKey && DELIVERY_SORT_KEY.test(sortKey)
      ? 'webhookDelivery'
      : undefined
    : holds
      ? sortKey && MEMBER_HOLD_SORT_KEY.test(sortKey)
        ? 'memberLegalHold'
        : undefined
      : exportsOf
        ? sortKey && MEMBER_EXPORT_SORT_KEY.test(sortKey)
          ? 'memberExport'
          : undefined
        : sortKey && KINDS.find((candidate) => candidate.sortKey.test(sortKey))?.kind;
  if (!orgId || !sortKey || !kind) return undefined;
  const before = record.dynamodb?.OldImage && unmarshall(record.dynamodb.OldImage as Record<string, AttributeValue>);
  const after = record.dynamodb?.NewImage && unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>);
  const removedByTtl = record.eventName === 'REMOVE' && isTtlRemoval(record, before);
  const side =
    <T>(map: (item: Item) => T) =>
    (item: Item | undefined): ItemSide<T> | undefined =>
      item ? { value: map(item), stamp: stampOf(item) } : undefined;
  const common = { orgId, removedByTtl };
  switch (kind) {
    case 'recording':
      return { ...common, kind, before: side(recordingFromItem)(before), after: side(recordingFromItem)(after) };
    case 'summary':
      return { ...common, kind, before: side(summaryRecordFromItem)(before), after: side(summaryRecordFromItem)(after) };
    case 'membership':
      return { ...common, kind, before: side(membershipFromItem)(before), after: side(membershipFromItem)(after) };
    case 'memberSettings':
      return { ...common, kind, before: side(memberSettingsFromItem)(before), after: side(memberSettingsFromItem)(after) };
    case 'invite':
      return { ...common, kind, before: side(inviteFromItem)(before), after: side(inviteFromItem)(after) };
    case 'template':
      return { ...common, kind, before: side(templateFromItem)(before), after: side(templateFromItem)(after) };
    case 'tombstone':
      return { ...common, kind, before: side(tombstoneFromItem)(before), after: side(tombstoneFromItem)(after) };
    case 'webhook':
      return { ...common, kind, before: side(webhookFromItem)(before), after: side(webhookFromItem)(after) };
    case 'webhookDelivery':
      return { ...common, kind, before: side(deliveryFromItem)(before), after: side(deliveryFromItem)(after) };
    case 'apiKey':
      return { ...common, kind, before: side(apiKeyFromItem)(before), after: side(apiKeyFromItem)(after) };
    case 'erasure':
      return { ...common, kind, before: side(erasureFromItem)(before), after: side(erasureFromItem)(after) };
    case 'organization':
      return { ...common, kind, before: side(organizationRetentionFromItem)(before), after: side(organizationRetentionFromItem)(after) };
    case 'memberLegalHold':
      return { ...common, kind, before: side(memberHoldFromItem)(before), after: side(memberHoldFromItem)(after) };
    case 'memberExport':
      return { ...common, kind, before: side(memberExportFromItem)(before), after: side(memberExportFromItem)(after) };
    case 'vocabulary':
      return { ...common, kind, before: side(vocabularyFromItem)(before), after: side(vocabularyFromItem)(after) };
    case 'trashTimer': {
      const image = before ?? after ?? {};
      const epoch = Number(image[TABLE.ttlAttribute] ?? 0);
      return {
        ...common,
        kind,
        recordingId: sortKey.slice('TRASHTIMER#'.length),
        dueAt: new Date(epoch * 1000).toISOString(),
        before: side(() => null)(before),
        after: side(() => null)(after),
      };
    }
  }
}

/** The change stamp an item carries, when it has a well-formed one. */
function stampOf(item: Item): ChangeStamp | undefined {
  const raw = item.last_change;
  if (typeof raw !== 'object' || raw === null) return undefined;
  const field = itemFields({ ...raw, PK: item.PK, SK: item.SK }, 'change stamp');
  return {
    id: field.string('id'),
    actor: actorOf((raw as Item).actor),
    correlation_id: field.nullableString('correlation_id'),
    ...(field.optionalString('reason') !== undefined ? { reason: field.optionalString('reason') } : {}),
  };
}

function actorOf(raw: unknown): Actor | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { kind, id } = raw as Item;
  return typeof id === 'string' && (ACTOR_KINDS as readonly unknown[]).includes(kind) ? { kind: kind as Actor['kind'], id } : null;
}

function isTtlRemoval(record: DynamoDBRecord, before: Item | undefined): boolean {
  const identity = record.userIdentity as { type?: string; principalId?: string } | undefined;
  if (identity) return identity.type === 'Service' && identity.principalId === 'dynamodb.amazonaws.com';
  return before?.[TABLE.ttlEmulatorMark] === true;
}
