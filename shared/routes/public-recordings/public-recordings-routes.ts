import { createPublicSummaryDocs, createPublicSummaryRoute } from './create-public-summary';
import { createUploadUrlDocs, createUploadUrlRoute } from './create-upload-url';
import { getPublicRecordingMediaDocs, getPublicRecordingMediaRoute } from './get-public-recording-media';
import { getPublicTranscriptDocs, getPublicTranscriptRoute } from './get-public-transcript';
import { listPublicRecordingsDocs, listPublicRecordingsRoute } from './list-public-recordings';
import { listPublicSummariesDocs, listPublicSummariesRoute } from './list-public-summaries';
import { transcribePublicRecordingDocs, transcribePublicRecordingRoute } from './transcribe-public-recording';
import { translatePublicRecordingDocs, translatePublicRecordingRoute } from './translate-public-recording';
import { updatePublicRecordingSpeakersDocs, updatePublicRecordingSpeakersRoute } from './update-public-recording-speakers';
import { defineRouteArea } from '../route-definition';

/**
 * The public API's recordings: uploads, the recordings list, their media and transcription, for API keys.
 */
export const PUBLIC_RECORDINGS_ROUTES = defineRouteArea({
  area: 'public-recordings',
  // Deployed with the recordings' routes, where they were first deployed (a path resource cannot move between stacks).
  stack: 'recordings',
  routes: [
    { route: createUploadUrlRoute, docs: createUploadUrlDocs },
    { route: listPublicRecordingsRoute, docs: listPublicRecordingsDocs },
    { route: getPublicRecordingMediaRoute, docs: getPublicRecordingMediaDocs },
    { route: getPublicTranscriptRoute, docs: getPublicTranscriptDocs },
    { route: transcribePublicRecordingRoute, docs: transcribePublicRecordingDocs },
    { route: listPublicSummariesRoute, docs: listPublicSummariesDocs },
    { route: createPublicSummaryRoute, docs: createPublicSummaryDocs },
    { route: translatePublicRecordingRoute, docs: translatePublicRecordingDocs },
    { route: updatePublicRecordingSpeakersRoute, docs: updatePublicRecordingSpeakersDocs },
  ],
});
