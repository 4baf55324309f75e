import { TranscriptExport } from '../../schemas/transcription-responses';
import { STANDUP } from '../demo-examples';
import type { OperationDocs } from '../route-docs';

/*
 * What both hosts' transcription routes say in their docs (Transcribe recording, Get transcript):
 * functions, called only by the routes' docs functions, so that no handler's bundle carries them.
 */

/** The refusals of Transcribe recording (both hosts). */
export const transcribeRefusals = (): OperationDocs['errors'] => ({
  403: ['TRANSCRIPTION_QUOTA_EXCEEDED'],
  404: ['RECORDING_NOT_FOUND'],
  409: ['RECORDING_NOT_UPLOADED', 'TRANSCRIPTION_IN_PROGRESS', 'CONCURRENT_UPDATE'],
});

export const transcribeDescription = () =>
  "Queues the transcription of an uploaded recording and answers it with `transcript_status: queued` (its `state` is `processing` until the transcription completes or fails). A completed or failed transcription may run again: the new transcript replaces the old one when it completes, and its minutes are billed again. The language is the body's, else the recorder's conversation language, else identified automatically.";

const SEGMENTS = [
  { speaker: 'Speaker 1', text: 'Morning all, quick round please.', start: 0, end: 3.2 },
  { speaker: 'Speaker 2', text: 'The APAC pricing deck is ready for review.', start: 3.4, end: 7.9 },
];

export const transcriptExportDescription = () =>
  "Answers the recording's transcript as a file: `json` (the default) `{recording_id, language, text, segments}`, `vtt`, `srt` or `txt`; `download=true` adds `Content-Disposition: attachment` with a file name from the title. While a re-run is in progress the previous transcript is served; 404 TRANSCRIPT_NOT_FOUND while there is none. `language=es` (a language the recording was translated into with Translate recording) answers the translated transcript in the same formats, same speakers and times; 404 TRANSLATION_NOT_FOUND when no translation into it completed.";

/** Get transcript's responses (JSON and its text formats, with examples) and refusals, on both hosts. */
export const transcriptExportDocs = (): Pick<OperationDocs, 'responses' | 'errors' | 'examples' | 'textFormats'> => ({
  responses: { 200: TranscriptExport },
  errors: { 404: ['RECORDING_NOT_FOUND', 'TRANSCRIPT_NOT_FOUND', 'TRANSLATION_NOT_FOUND'] },
  examples: {
    responses: { 200: { recording_id: STANDUP, language: 'en-US', text: SEGMENTS.map((s) => s.text).join(' '), segments: SEGMENTS } },
  },
  textFormats: [
    {
      mediaType: 'text/vtt',
      description: '`format=vtt` (`text/vtt; charset=utf-8`): a WebVTT file, one cue per turn with its `<v Speaker 1>` voice tag.',
      example:
        'WEBVTT\n\n00:00:00.000 --> 00:00:03.200\n<v Speaker 1>Morning all, quick round please.\n\n00:00:03.400 --> 00:00:07.900\n<v Speaker 2>The APAC pricing deck is ready for review.\n',
    },
    {
      mediaType: 'application/x-subrip',
      description: '`format=srt`: a SubRip file, numbered cues `Speaker 1: text`.',
      example:
        '1\n00:00:00,000 --> 00:00:03,200\nSpeaker 1: Morning all, quick round please.\n\n2\n00:00:03,400 --> 00:00:07,900\nSpeaker 2: The APAC pricing deck is ready for review.\n',
    },
    {
      mediaType: 'text/plain',
      description: '`format=txt` (`text/plain; charset=utf-8`): one `Speaker: text` line per turn.',
      example: 'Speaker 1: Morning all, quick round please.\nSpeaker 2: The APAC pricing deck is ready for review.\n',
    },
  ],
});
