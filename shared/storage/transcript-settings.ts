import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { keys } from './keys';
import { appliedUnlessConditionFails } from './transactions';
import {
  vocabularyFromItem,
  vocabularyItem,
  type OrgVocabulary,
  type RedactionSetting,
  type VocabularyStatus,
} from './transcript-setting-items';

/**
 * The organization's transcript controls in the table: its redaction setting (a map on the
 * organization item) and its vocabulary item. One item written per change; the stream makes the
 * events (`organization.redaction_updated`, `organization.vocabulary_updated`).
 */

/** Sets an existing organization's redaction (ConditionalCheckFailed when it does not exist). */
export async function setRedaction(db: TableContext, orgId: string, setting: RedactionSetting): Promise<void> {
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.organization(orgId),
      UpdateExpression: 'SET redaction = :setting, updated_at = :now, last_change = :stamp',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':setting': setting, ':now': setting.updated_at, ':stamp': changeStamp().last_change },
    }),
  );
}

/** The organization's vocabulary; `withTerms: false` reads its state alone (a job's start). */
export async function getVocabulary(
  db: TableContext,
  orgId: string,
  options: { consistent?: boolean; withTerms?: boolean } = {},
): Promise<OrgVocabulary | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({
      TableName: db.tableName,
      Key: keys.vocabulary(orgId),
      ...(options.consistent ? { ConsistentRead: true } : {}),
      ...(options.withTerms === false
        ? {
            ProjectionExpression:
              'PK, SK, org_id, language_code, term_count, version, #status, status_version, updated_at, updated_by, status_at',
            ExpressionAttributeNames: { '#status': 'status' },
          }
        : {}),
    }),
  );
  return Item ? vocabularyFromItem(Item) : undefined;
}

/**
 * Stores a new version of the vocabulary, only if the stored one is still the version read
 * (none: no item yet). False when another write came first.
 */
export async function putVocabulary(db: TableContext, vocabulary: OrgVocabulary, readVersion: number | undefined): Promise<boolean> {
  return appliedUnlessConditionFails(
    db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...vocabularyItem(vocabulary), ...changeStamp() },
        ...(readVersion === undefined
          ? { ConditionExpression: 'attribute_not_exists(PK)' }
          : { ConditionExpression: 'version = :read', ExpressionAttributeValues: { ':read': readVersion } }),
      }),
    ),
  );
}

/**
 * Records where a version of the vocabulary stands in Transcribe: submitted to it, or its status
 * (ready, failed with a reason). Only while that version is still the stored one: false when a
 * newer version replaced it (its own sync takes over).
 */
export async function recordVocabularyState(
  db: TableContext,
  orgId: string,
  version: number,
  state: { submitted: true; at: string } | { status: VocabularyStatus; failureReason?: string; at: string },
): Promise<boolean> {
  const values: Record<string, unknown> = { ':version': version, ':at': state.at };
  let update: string;
  if ('submitted' in state) update = 'SET submitted_version = :version, status_at = :at';
  else {
    Object.assign(values, { ':status': state.status });
    update = 'SET #status = :status, status_version = :version, status_at = :at';
    if (state.failureReason !== undefined) {
      values[':reason'] = state.failureReason;
      update += ', failure_reason = :reason';
    } else update += ' REMOVE failure_reason';
  }
  return appliedUnlessConditionFails(
    db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.vocabulary(orgId),
        UpdateExpression: update,
        ConditionExpression: 'version = :version',
        ...('submitted' in state ? {} : { ExpressionAttributeNames: { '#status': 'status' } }),
        ExpressionAttributeValues: values,
      }),
    ),
  );
}
