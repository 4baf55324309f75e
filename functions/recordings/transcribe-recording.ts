import { recordingView } from '../../shared/domain/recordings/recording-views';
import { transcribeRecording } from '../../shared/domain/transcription/transcribe-recording';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { transcribeRecordingRoute } from '../../shared/routes/recordings/transcribe-recording';
import { transcriptionDeps } from '../../shared/wiring/transcription-deps';

/** POST /api/v1/organization/{orgId}/recordings/{recordingId}/transcribe */
export const handler = idempotentApiHandler(transcribeRecordingRoute, async ({ caller, path, body }) => {
  const recording = await transcribeRecording(transcriptionDeps(), caller, path.recordingId, body);
  return json(202, recordingView(recording, {}, []));
});
