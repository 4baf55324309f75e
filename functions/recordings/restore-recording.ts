import { restoreRecording } from '../../shared/domain/recordings/restore-recording';
import { listItemView } from '../../shared/domain/recordings/recording-views';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { restoreRecordingRoute } from '../../shared/routes/recordings/restore-recording';
import { recordingDeps } from '../../shared/wiring/recording-deps';

/** POST /api/v1/organization/{orgId}/recordings/{recordingId}/restore (its trash timer goes with it) */
export const handler = idempotentApiHandler(restoreRecordingRoute, async ({ caller, path }) => {
  const recording = await restoreRecording(recordingDeps(), caller.orgId, path.recordingId);
  return json(200, listItemView(recording));
});
