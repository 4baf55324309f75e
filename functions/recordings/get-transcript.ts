import { getTranscript } from '../../shared/domain/transcription/get-transcript';
import { apiHandler } from '../../shared/http/api-handler';
import { transcriptFileResponse } from '../../shared/http/responses';
import { getTranscriptRoute } from '../../shared/routes/recordings/get-transcript';
import { transcriptionDeps } from '../../shared/wiring/transcription-deps';

/** GET /api/v1/organization/{orgId}/recordings/{recordingId}/transcript?format=json|vtt|srt|txt&download=true|false */
export const handler = apiHandler(getTranscriptRoute, async ({ caller, path, query }) => {
  const file = await getTranscript(
    transcriptionDeps().db,
    caller,
    path.recordingId,
    query.format,
    query.download === 'true',
    query.language,
  );
  return transcriptFileResponse(file);
});
