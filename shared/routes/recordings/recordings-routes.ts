import { deleteRecordingDocs, deleteRecordingRoute } from './delete-recording';
import { getRecordingMediaDocs, getRecordingMediaRoute } from './get-recording-media';
import { getRecordingDocs, getRecordingRoute } from './get-recording';
import { getTranscriptDocs, getTranscriptRoute } from './get-transcript';
import { listRecordingsDocs, listRecordingsRoute } from './list-recordings';
import { restoreRecordingDocs, restoreRecordingRoute } from './restore-recording';
import { transcribeRecordingDocs, transcribeRecordingRoute } from './transcribe-recording';
import { updateRecordingDocs, updateRecordingRoute } from './update-recording';

/**
 * An organization's recordings: list, read, play, change, trash, restore and transcribe them. In manifest
 * order: the order of the OpenAPI document, the stack and the sample requests.
 */
export const RECORDINGS_ROUTES = [
  { route: listRecordingsRoute, docs: listRecordingsDocs },
  { route: getRecordingRoute, docs: getRecordingDocs },
  { route: getRecordingMediaRoute, docs: getRecordingMediaDocs },
  { route: getTranscriptRoute, docs: getTranscriptDocs },
  { route: updateRecordingRoute, docs: updateRecordingDocs },
  { route: deleteRecordingRoute, docs: deleteRecordingDocs },
  { route: restoreRecordingRoute, docs: restoreRecordingDocs },
  { route: transcribeRecordingRoute, docs: transcribeRecordingDocs },
] as const;
