import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { readStoredOrganizationLimits } from './stored-rate-limits';
import type { OrganizationLimits } from '../core/rate-limits';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { keys } from './keys';
import type { TransactItem } from './transactions';
import { retentionFromMap, type RetentionPolicy } from './retention-policy-items';
import { redactionFromMap, type RedactionSetting } from './transcript-setting-items';

export interface Organization {
  org_id: string;
  name: string;
  /** Maintained in the same transaction as every membership change that moves it. */
  active_member_count: number;
  created_at: string;
  updated_at: string;
  /**
   * Live recordings, moved in the same transaction as every recording change. Optional here
   * because an organization is created without it: the first recording change adds it.
   */
  recording_count?: number;
  /** Recordings in the trash; like recording_count, absent until the first recording change. */
  trash_count?: number;
  /**
   * Since when the member search index (shared/storage/member-search.ts) holds every active
   * member: set at creation, or by its rebuild for an organization created before it existed.
   * Absent, List users' `q` reads the active members index instead.
   */
  member_search_index_at?: string;
  /** Since when the recording day counts (shared/storage/recording-day-counts.ts) count every recording; same rules. */
  recording_days_index_at?: string;
  /**
   * Since when every template carries its List templates order keys (GSI1 and GSI3,
   * keys.templatesIndex); same rules. Absent, List templates reads every template and orders them.
   */
  templates_index_at?: string;
  /**
   * Its templates, moved in the transaction that creates or deletes one and set by the rebuild
   * of their order keys; counts every template once `templates_index_at` is set.
   */
  template_count?: number;
  /** Its default template (the one whose `is_default` is true), moved with it in one transaction; absent when it has none. */
  default_template_id?: string;
  /** Its own rate limit and daily quota (`org set-limits`); absent, the configured defaults apply (docs/rate-limits.md). */
  rate_limits?: OrganizationLimits;
  /** Its retention policy (docs/governance.md); absent, recordings are kept until someone deletes them. */
  retention?: RetentionPolicy;
  /** Since when every live recording carries its retention index keys (keys.recordingRetentionIndex); same rules as the others. */
  retention_index_at?: string;
  /** Its PII redaction setting (docs/transcript-controls.md, "Redaction"); absent, redaction is off. */
  redaction?: RedactionSetting;
}

/** An organization as read: the recording counters of one that never had a recording read as 0. */
export type StoredOrganization = Organization & { recording_count: number; trash_count: number; template_count: number };

/** Maps a stored organization item (StoredItemError when it lacks a field it needs). */
export function organizationFromItem(item: Record<string, unknown>): StoredOrganization {
  const fields = itemFields(item, 'organization');
  return {
    org_id: fields.string('org_id'),
    name: fields.string('name'),
    active_member_count: fields.number('active_member_count'),
    created_at: fields.string('created_at'),
    updated_at: fields.string('updated_at'),
    recording_count: fields.optionalNumber('recording_count') ?? 0,
    trash_count: fields.optionalNumber('trash_count') ?? 0,
    member_search_index_at: fields.optionalString('member_search_index_at'),
    recording_days_index_at: fields.optionalString('recording_days_index_at'),
    templates_index_at: fields.optionalString('templates_index_at'),
    template_count: fields.optionalNumber('template_count') ?? 0,
    default_template_id: fields.optionalString('default_template_id'),
    rate_limits: organizationLimitsFromItem(item),
    retention: item.retention === undefined ? undefined : retentionFromMap(item),
    retention_index_at: fields.optionalString('retention_index_at'),
    redaction: item.redaction === undefined ? undefined : redactionFromMap(item),
  };
}

/** An organization's own limits from its item: undefined when it has none; an Error when they are not valid limits. */
function organizationLimitsFromItem(item: Record<string, unknown>): OrganizationLimits | undefined {
  if (item.rate_limits === undefined) return undefined;
  const limits = readStoredOrganizationLimits(item.rate_limits);
  if (!limits) throw new Error(`Organization ${String(item.org_id)}: its stored rate_limits are not valid limits`);
  return limits;
}

/**
 * An organization's own limits (the rate limiter's read, one small GetItem): `null` when it
 * has none, undefined when the organization does not exist.
 */
export async function getOrganizationLimits(db: TableContext, orgId: string): Promise<OrganizationLimits | null | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.organization(orgId), ProjectionExpression: 'org_id, rate_limits' }),
  );
  return Item ? (organizationLimitsFromItem(Item) ?? null) : undefined;
}

/** Sets an existing organization's own limits, or removes them with null (ConditionalCheckFailed when it does not exist). */
export async function setOrganizationLimits(
  db: TableContext,
  orgId: string,
  limits: OrganizationLimits | null,
  now: string,
): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: limits ? 'SET rate_limits = :limits, updated_at = :now' : 'REMOVE rate_limits SET updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ...(limits ? { ':limits': limits } : {}), ':now': now },
    }),
  );
}

/** One organization, or undefined. */
export async function getOrganization(
  db: TableContext,
  orgId: string,
  options: { consistent?: boolean } = {},
): Promise<StoredOrganization | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: keys.organization(orgId), ...(options.consistent ? { ConsistentRead: true } : {}) }),
  );
  return Item ? organizationFromItem(Item) : undefined;
}

/** Creates an organization; fails with ConditionalCheckFailed if the id is taken. */
export async function insertOrganization(db: TableContext, org: Organization): Promise<void> {
  await db.client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.tableName,
            Item: { ...keys.organization(org.org_id), ...org },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );
}

/** Renames an organization that exists (ConditionalCheckFailed otherwise). */
export async function renameOrganization(db: TableContext, orgId: string, name: string, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET #name = :name, updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': name, ':now': now },
    }),
  );
}

/** Transaction part that moves the org's active member count by `delta` (org must exist). */
export function activeMemberCountChange(db: TableContext, orgId: string, delta: number, now: string) {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'ADD active_member_count :delta SET updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':delta': delta, ':now': now },
    },
  };
}

/**
 * Transaction part that moves the org's live and trash recording counters (org must exist).
 * ADD creates a counter on its first move, which is why an organization may lack them.
 */
export function recordingCountsChange(db: TableContext, orgId: string, move: { live: number; trash: number }): TransactItem {
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'ADD recording_count :live, trash_count :trash',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':live': move.live, ':trash': move.trash },
    },
  };
}

/** Transaction part that moves the org's template count by `delta` (org must exist); ADD creates it on the first move. */
/** Which template is an organization's default, before and after a write (undefined: none). */
export interface DefaultTemplateMove {
  from: string | undefined;
  to: string | undefined;
}

/**
 * The organization's side of a template write: its template count moved by `delta`, and its
 * default template moved as `defaultMove` says, conditioned on the default being `from` still,
 * so two requests choosing different defaults cannot both commit.
 */
export function templateCountChange(db: TableContext, orgId: string, delta: 1 | -1 | 0, defaultMove?: DefaultTemplateMove): TransactItem {
  const conditions = ['attribute_exists(PK)'];
  const values: Record<string, unknown> = {};
  const actions: string[] = [];
  if (delta !== 0) {
    actions.push('ADD template_count :delta');
    values[':delta'] = delta;
  }
  if (defaultMove) {
    if (defaultMove.to === undefined) actions.push('REMOVE default_template_id');
    else {
      actions.push('SET default_template_id = :to');
      values[':to'] = defaultMove.to;
    }
    if (defaultMove.from === undefined) conditions.push('attribute_not_exists(default_template_id)');
    else {
      conditions.push('default_template_id = :from');
      values[':from'] = defaultMove.from;
    }
  }
  return {
    Update: {
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: actions.join(' '),
      ConditionExpression: conditions.join(' AND '),
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/** The organization's marks of a complete derived index (Organization.member_search_index_at, recording_days_index_at, templates_index_at). */
export type DerivedIndexMark = 'member_search_index_at' | 'recording_days_index_at' | 'templates_index_at' | 'retention_index_at';

/** Marks a derived index of an existing organization complete since `now` (ConditionalCheckFailed when it does not exist). */
export async function markDerivedIndexComplete(db: TableContext, orgId: string, mark: DerivedIndexMark, now: string): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET #mark = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#mark': mark },
      ExpressionAttributeValues: { ':now': now },
    }),
  );
}

/**
 * Marks the templates' order keys complete since `now`, with the number of templates the
 * rebuild found (the organization must exist). A template created or deleted while the
 * rebuild runs may be miscounted: like every rebuild, run it when the organization is quiet.
 */
export async function markTemplateOrderComplete(db: TableContext, orgId: string, now: string, templateCount: number): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET templates_index_at = :now, template_count = :count',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':now': now, ':count': templateCount },
    }),
  );
}

/** Removes a derived index's "complete since" mark, so readers fall back and the next rebuild runs. */
export async function markDerivedIndexIncomplete(db: TableContext, orgId: string, mark: DerivedIndexMark): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'REMOVE #mark',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#mark': mark },
    }),
  );
}
