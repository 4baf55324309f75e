import { createPublicSummaryDocs, createPublicSummaryRoute } from './create-public-summary';
import { createUploadUrlDocs, createUploadUrlRoute } from './create-upload-url';
import { getPublicRecordingMediaDocs, getPublicRecordingMediaRoute } from './get-public-recording-media';
import { getPublicTranscriptDocs, getPublicTranscriptRoute } from './get-public-transcript';
import { listPublicRecordingsDocs, listPublicRecordingsRoute } from './list-public-recordings';
import { listPublicSummariesDocs, listPublicSummariesRoute } from './list-public-summaries';
import { transcribePublicRecordingDocs, transcribePublicRecordingRoute } from './transcribe-public-recording';
import { translatePublicRecordingDocs, translatePublicRecordingRoute } from './translate-public-recording';

/**
 * The public API's recordings: uploads, the recordings list, their media and transcription, for API keys. In
 * manifest order: the order of the OpenAPI document, the stack and the sample requests.
 */
export const PUBLIC_RECORDINGS_ROUTES = [
  { route: createUploadUrlRoute, docs: createUploadUrlDocs },
  { route: listPublicRecordingsRoute, docs: listPublicRecordingsDocs },
  { route: getPublicRecordingMediaRoute, docs: getPublicRecordingMediaDocs },
  { route: getPublicTranscriptRoute, docs: getPublicTranscriptDocs },
  { route: transcribePublicRecordingRoute, docs: transcribePublicRecordingDocs },
  { route: listPublicSummariesRoute, docs: listPublicSummariesDocs },
  { route: createPublicSummaryRoute, docs: createPublicSummaryDocs },
  { route: translatePublicRecordingRoute, docs: translatePublicRecordingDocs },
] as const;
