import { deleteRecordingDocs, deleteRecordingRoute } from './delete-recording';
import { getRecordingMediaDocs, getRecordingMediaRoute } from './get-recording-media';
import { getRecordingDocs, getRecordingRoute } from './get-recording';
import { getTranscriptDocs, getTranscriptRoute } from './get-transcript';
import { listRecordingsDocs, listRecordingsRoute } from './list-recordings';
import { placeRecordingLegalHoldDocs, placeRecordingLegalHoldRoute } from './place-recording-legal-hold';
import { releaseRecordingLegalHoldDocs, releaseRecordingLegalHoldRoute } from './release-recording-legal-hold';
import { restoreRecordingDocs, restoreRecordingRoute } from './restore-recording';
import { transcribeRecordingDocs, transcribeRecordingRoute } from './transcribe-recording';
import { updateRecordingDocs, updateRecordingRoute } from './update-recording';
import { updateRecordingSpeakersDocs, updateRecordingSpeakersRoute } from './update-recording-speakers';
import { defineRouteArea } from '../route-definition';

/**
 * An organization's recordings: list, read, play, change, trash, restore and transcribe them; hold them (legal holds).
 */
export const RECORDINGS_ROUTES = defineRouteArea({
  area: 'recordings',
  stack: 'recordings',
  routes: [
    { route: listRecordingsRoute, docs: listRecordingsDocs },
    { route: getRecordingRoute, docs: getRecordingDocs },
    { route: getRecordingMediaRoute, docs: getRecordingMediaDocs },
    { route: getTranscriptRoute, docs: getTranscriptDocs },
    { route: updateRecordingRoute, docs: updateRecordingDocs },
    { route: deleteRecordingRoute, docs: deleteRecordingDocs },
    { route: restoreRecordingRoute, docs: restoreRecordingDocs },
    { route: transcribeRecordingRoute, docs: transcribeRecordingDocs },
    { route: placeRecordingLegalHoldRoute, docs: placeRecordingLegalHoldDocs },
    { route: releaseRecordingLegalHoldRoute, docs: releaseRecordingLegalHoldDocs },
    { route: updateRecordingSpeakersRoute, docs: updateRecordingSpeakersDocs },
  ],
});
