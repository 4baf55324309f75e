import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from '../../shared/storage/dynamo';
import { EVENTUAL_MS, eventually } from './eventually';

const IN_FLIGHT = new Set(['queued', 'processing']);

/** Whether a processing stage (a transcription, a summary, a translation) is queued or running on one of the organization's recordings. */
export async function stagesInFlight(db: TableContext, orgId: string): Promise<boolean> {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :rec)',
      ExpressionAttributeValues: { ':pk': `ORG#${orgId}`, ':rec': 'REC#' },
      ConsistentRead: true,
    }),
  );
  return Items.some(
    (item) =>
      IN_FLIGHT.has(item.transcription?.status) ||
      IN_FLIGHT.has(item.translation?.status) ||
      (Array.isArray(item.summaries) && item.summaries.some((summary: { status: string }) => IN_FLIGHT.has(summary.status))),
  );
}

/**
 * Waits until the stages earlier requests queued on the organization's recordings are done, so
 * that a suite running the sample requests one after another (two of them transcribe the same
 * recording) finds the sample data as a user running them one by one would.
 */
export async function stagesSettled(db: TableContext, orgId: string): Promise<void> {
  await eventually(
    () => stagesInFlight(db, orgId),
    (busy) => !busy,
    { alsoWaitingMs: EVENTUAL_MS },
  );
}
