import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeStamp } from './change-stamp';
import type { TableContext } from './dynamo';
import { itemFields } from './item-fields';
import { organizationRecordingRows } from './assignee-rewrites';
import { keys } from './keys';
import { speakersFromList, type RecordingSpeaker } from './speaker-items';
import { isConditionFailure } from './transactions';

/**
 * Speakers named as people, in the organization's recordings: found from the recordings index
 * (live and trash, three attributes), as the erasure's action item rewrite finds its holders
 * (assignee-rewrites.ts): no index lists speakers by member, and only the erasure job reads this.
 */
export interface NamedSpeakers {
  recordingId: string;
  speakers: RecordingSpeaker[];
  /** The recording's `updated_at` as read: the rewrite holds only while it is unchanged. */
  updatedAt: string;
}

export async function organizationNamedSpeakers(db: TableContext, orgId: string): Promise<NamedSpeakers[]> {
  const recordings = await organizationRecordingRows(db, orgId, ['PK', 'SK', 'id', 'speakers', 'updated_at'], 'speakers');
  return recordings.map((item) => {
    const fields = itemFields(item, 'recording');
    return {
      recordingId: fields.string('id'),
      speakers: speakersFromList(item, fields.list('speakers')),
      updatedAt: fields.string('updated_at'),
    };
  });
}

/** Writes a recording's speakers back, only while it is as read. False when it changed meanwhile: read it again. */
export async function replaceSpeakers(
  db: TableContext,
  orgId: string,
  named: NamedSpeakers,
  speakers: RecordingSpeaker[],
): Promise<boolean> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.recording(orgId, named.recordingId),
        UpdateExpression: 'SET speakers = :speakers, last_change = :stamp',
        ConditionExpression: 'updated_at = :read',
        ExpressionAttributeValues: { ':speakers': speakers, ':read': named.updatedAt, ':stamp': changeStamp().last_change },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
