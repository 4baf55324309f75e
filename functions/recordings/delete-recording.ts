import { deleteRecordingPermanently, softDeleteRecording } from '../../shared/domain/recordings/recording-changes';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/responses';
import { table } from '../../shared/storage/dynamo';
import { recordingObjects } from '../../shared/storage/recording-objects';

/** DELETE /api/v1/organization/{orgId}/recordings/{recordingId}?permanent=true|false */
export const handler = apiHandler('deleteRecording', async ({ caller, path, query }) => {
  const deps = { db: table(), now: () => new Date() };
  if (query.permanent === 'true') {
    await deleteRecordingPermanently({ ...deps, deleteObject: (key) => recordingObjects().deleteObject(key) }, caller.orgId, path.recordingId);
  } else {
    await softDeleteRecording(deps, caller.orgId, path.recordingId);
  }
  return json(200, { success: true });
});
