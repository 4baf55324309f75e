import { getTranscript } from '../../shared/domain/transcription/get-transcript';
import { apiHandler } from '../../shared/http/api-handler';
import { transcriptFileResponse } from '../../shared/http/responses';
import { getPublicTranscriptRoute } from '../../shared/routes/public-recordings/get-public-transcript';
import { transcriptionDeps } from '../../shared/wiring/transcription-deps';

/** GET /api/v1/public/recordings/{recordingId}/transcript (a personal key: its member's own recordings) */
export const handler = apiHandler(getPublicTranscriptRoute, async ({ caller, path, query }) => {
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
