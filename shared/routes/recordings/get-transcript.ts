import { TranscriptExport } from '../../schemas/transcription-responses';
import { TranscriptExportQuery } from '../../schemas/transcription';
import { STANDUP } from '../demo-examples';
import { defineRoute, orgRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const getTranscriptRoute = defineRoute({
  name: 'getTranscript',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/recordings/{recordingId}/transcript',
  handler: 'functions/recordings/get-transcript',
  summary: "Export a recording's transcript as JSON, WebVTT, SubRip or text",
  access: orgRoute('viewer', 'recordings:read'),
  permissions: { table: ['Query'] },
  request: { query: TranscriptExportQuery },
});

const SEGMENTS = [
  { speaker: 'Speaker 1', text: 'Morning all, quick round please.', start: 0, end: 3.2 },
  { speaker: 'Speaker 2', text: 'The APAC pricing deck is ready for review.', start: 3.4, end: 7.9 },
];

/** What both hosts' docs say of the export: its formats, with examples, and its refusals. */
export const TRANSCRIPT_EXPORT_DOCS = {
  responses: { 200: TranscriptExport },
  errors: { 404: ['RECORDING_NOT_FOUND', 'TRANSCRIPT_NOT_FOUND'] },
  examples: { responses: { 200: { recording_id: STANDUP, language: 'en-US', text: SEGMENTS.map((s) => s.text).join(' '), segments: SEGMENTS } } },
  textFormats: [
    {
      mediaType: 'text/vtt',
      description: '`format=vtt` (`text/vtt; charset=utf-8`): a WebVTT file, one cue per turn with its `<v Speaker 1>` voice tag.',
      example: 'WEBVTT\n\n00:00:00.000 --> 00:00:03.200\n<v Speaker 1>Morning all, quick round please.\n\n00:00:03.400 --> 00:00:07.900\n<v Speaker 2>The APAC pricing deck is ready for review.\n',
    },
    {
      mediaType: 'application/x-subrip',
      description: '`format=srt`: a SubRip file, numbered cues `Speaker 1: text`.',
      example: '1\n00:00:00,000 --> 00:00:03,200\nSpeaker 1: Morning all, quick round please.\n\n2\n00:00:03,400 --> 00:00:07,900\nSpeaker 2: The APAC pricing deck is ready for review.\n',
    },
    {
      mediaType: 'text/plain',
      description: '`format=txt` (`text/plain; charset=utf-8`): one `Speaker: text` line per turn.',
      example: 'Speaker 1: Morning all, quick round please.\nSpeaker 2: The APAC pricing deck is ready for review.\n',
    },
  ],
} as const;

export const TRANSCRIPT_EXPORT_DESCRIPTION =
  "Answers the recording's transcript as a file: `json` (the default) `{recording_id, language, text, segments}`, `vtt`, `srt` or `txt`; `download=true` adds `Content-Disposition: attachment` with a file name from the title. While a re-run is in progress the previous transcript is served; 404 TRANSCRIPT_NOT_FOUND while there is none.";

/** Its documentation, examples and sample request, for the OpenAPI document and the sample events: a function, so that esbuild leaves it out of the handler's bundle whole. */
export const getTranscriptDocs = (): OperationDocs => ({
  description: TRANSCRIPT_EXPORT_DESCRIPTION,
  ...TRANSCRIPT_EXPORT_DOCS,
  sample: (ids) => ({ credential: 'orgKey', path: { recordingId: ids.recordingId }, query: { format: 'vtt' }, status: 200 }),
});
