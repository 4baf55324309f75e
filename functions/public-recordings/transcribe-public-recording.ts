import { recordingView } from '../../shared/domain/recordings/recording-views';
import { transcribeRecording } from '../../shared/domain/transcription/transcribe-recording';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { transcribePublicRecordingRoute } from '../../shared/routes/public-recordings/transcribe-public-recording';
import { transcriptionDeps } from '../../shared/wiring/transcription-deps';

/** POST /api/v1/public/recordings/{recordingId}/transcribe (a personal key: its member's own recordings) */
export const handler = idempotentApiHandler(transcribePublicRecordingRoute, async ({ caller, path, body }) => {
  const recording = await transcribeRecording(transcriptionDeps(), caller, path.recordingId, body);
  return envelope(recordingView(recording, {}, []), undefined, 202);
});
