import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { TableContext } from './dynamo';
import { recordingPutAsRead } from './recording-writes';
import type { Recording } from './recording-items';
import { isConditionFailure, WriteConflict } from './transactions';

/**
 * Stores a recording whose speakers were named: one conditional Put of the recording item, only
 * while it is live and unchanged since it was read (else a WriteConflict, and the caller reads
 * again). Its tag links, counters and related items do not move, so nothing else is written.
 */
export async function commitSpeakerNames(db: TableContext, before: Recording, after: Recording): Promise<void> {
  const { Put } = recordingPutAsRead(db, before, after, 'LIVE');
  if (!Put) throw new Error('A recording put carries a Put');
  try {
    await db.client.send(new PutCommand(Put));
  } catch (error) {
    if (isConditionFailure(error)) throw new WriteConflict(['recording'], { cause: error });
    throw error;
  }
}
