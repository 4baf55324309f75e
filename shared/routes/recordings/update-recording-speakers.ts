import { UpdateSpeakersBody } from '../../schemas/transcript-controls';
import { SpeakersResponse } from '../../schemas/transcript-control-responses';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const updateRecordingSpeakersRoute = defineRoute({
  name: 'updateRecordingSpeakers',
  method: 'PATCH',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/speakers',
  handler: 'functions/recordings/update-recording-speakers',
  summary: "Name a recording's speakers",
  access: orgRoute('member', 'recordings:write'),
  // GetItem: the recording; BatchGetItem: the members named; Query: a transcript stored before speakers were; PutItem: the recording.
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem'] },
  request: { body: UpdateSpeakersBody },
});

export const speakersDescription = () =>
  "Names the speakers of the recording's transcript by their label: as a member (`user_id`: an active member, whose display name becomes the name) or by a name; `name: null` returns to the label. The names show in the transcript's turns, every export format, search results and the summaries, action items and translations written after; nothing is transcribed again. A transcript of a single voice is its recorder's until someone says otherwise. Emits `recording.speakers_updated` (labels and member ids only).";

export const speakersExample = {
  recording_id: 'rec_demo_standup',
  speakers: [
    { label: 'Speaker 1', name: 'Mia Lind', user_id: 'usr_demo_owner', talk_time_seconds: 312.4, turn_count: 18 },
    { label: 'Speaker 2', name: 'Client', user_id: null, talk_time_seconds: 201.9, turn_count: 15 },
  ],
};

export const speakersRequestExample = {
  speakers: [
    { label: 'Speaker 1', user_id: 'usr_demo_owner' },
    { label: 'Speaker 2', name: 'Client' },
  ],
};

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const updateRecordingSpeakersDocs = (): OperationDocs => ({
  description: `${speakersDescription()} Members name their own recordings' speakers (another member's is 403 INSUFFICIENT_ROLE), admins and owners anyone's, organization keys with \`recordings:write\` any.`,
  responses: { 200: SpeakersResponse },
  errors: {
    400: ['VALIDATION_ERROR', 'INVALID_SPEAKERS'],
    403: ['INSUFFICIENT_ROLE'],
    404: ['RECORDING_NOT_FOUND', 'TRANSCRIPT_NOT_FOUND'],
    409: ['CONCURRENT_UPDATE'],
  },
  examples: { request: speakersRequestExample, responses: { 200: speakersExample } },
  sample: (ids) => ({
    credential: 'orgKey',
    path: { recordingId: ids.recordingId },
    // The sample recording's transcript has one voice, labelled as its fixture says.
    body: { speakers: [{ label: 'Mia', name: 'Host' }] },
    status: 200,
  }),
});
