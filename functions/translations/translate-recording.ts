import { translateRecording } from '../../shared/domain/translations/translate-recording';
import { translationView } from '../../shared/domain/translations/translation-changes';
import { idempotentApiHandler } from '../../shared/http/idempotent-handlers';
import { json } from '../../shared/http/responses';
import { translateRecordingRoute } from '../../shared/routes/translations/translate-recording';
import { translationRequestDeps } from '../../shared/wiring/translation-deps';

/** POST /api/v1/organization/{orgId}/recordings/{recordingId}/translations */
export const handler = idempotentApiHandler(translateRecordingRoute, async ({ caller, path, body }) => {
  const translation = await translateRecording(translationRequestDeps(), caller, path.recordingId, body);
  return json(202, translationView(translation));
});
