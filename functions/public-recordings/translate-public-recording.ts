import { translateRecording } from '../../shared/domain/translations/translate-recording';
import { translationView } from '../../shared/domain/translations/translation-changes';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { envelope } from '../../shared/http/responses';
import { translatePublicRecordingRoute } from '../../shared/routes/public-recordings/translate-public-recording';
import { translationRequestDeps } from '../../shared/wiring/translation-deps';

/** POST /api/v1/public/recordings/{recordingId}/translations (a personal key: its member's own recordings) */
export const handler = idempotentApiHandler(translatePublicRecordingRoute, async ({ caller, path, body }) => {
  const translation = await translateRecording(translationRequestDeps(), caller, path.recordingId, body);
  return envelope(translationView(translation), undefined, 202);
});
