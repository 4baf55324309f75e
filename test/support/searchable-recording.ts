import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createRecording } from '../../shared/domain/recordings/recording-changes';
import type { TableContext } from '../../shared/storage/dynamo';
import { keys } from '../../shared/storage/keys';
import type { Recording } from '../../shared/storage/recording-items';
import { seed, unique } from './api';

const T0 = new Date('2036-02-01T00:00:00.000Z');

/** A recording of an organization of its own, titled 'Budget review', and a way to change its stored item behind the domain's back. */
export async function newSearchableRecording(db: TableContext) {
  const id = unique();
  const orgId = `org_sidx_${id}`;
  const userId = `usr_sidx_${id}`;
  await seed(db, {
    orgs: [{ id: orgId, name: `Indexer ${id}` }],
    users: [{ id: userId, email: `sidx.${id}@example.com`, display_name: 'Ix' }],
    memberships: [{ org_id: orgId, user_id: userId, role: 'member' }],
  });
  const recording: Recording = {
    id: `rec_sidx_${id}`,
    org_id: orgId,
    recorded_by: userId,
    title: 'Budget review',
    description: '',
    duration: 60,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'ready',
    created_at: T0.toISOString(),
    updated_at: T0.toISOString(),
    recording_at: T0.toISOString(),
    related: { transcript: false, summary: false, action_items: false, translation: false },
  };
  await createRecording({ db, now: () => T0 }, recording);
  const set = (expression: string, values: Record<string, unknown>) =>
    db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: keys.recording(orgId, recording.id),
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
      }),
    );
  return { orgId, recordingId: recording.id, set };
}
