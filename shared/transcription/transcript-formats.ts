import type { TranscriptSegment } from '../storage/recording-part-items';
import { speakerView, type RecordingSpeaker } from '../storage/speaker-items';

/**
 * A transcript exported as a file: JSON, WebVTT (W3C), SubRip and plain text. Pure functions:
 * the export route picks the format and sets the headers these return.
 */
export const TRANSCRIPT_FORMATS = ['json', 'vtt', 'srt', 'txt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export interface TranscriptToRender {
  recordingId: string;
  language: string;
  /** The turns as shown: speakers' names in place of the labels someone named. */
  segments: TranscriptSegment[];
  /** The transcript's speakers, for the JSON export (labels, names, talk time). */
  speakers?: readonly RecordingSpeaker[];
}

export interface RenderedTranscript {
  contentType: string;
  body: string;
}

const CONTENT_TYPES: Record<TranscriptFormat, string> = {
  json: 'application/json',
  vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip',
  txt: 'text/plain; charset=utf-8',
};

const FILE_EXTENSIONS: Record<TranscriptFormat, string> = { json: 'json', vtt: 'vtt', srt: 'srt', txt: 'txt' };

/** The transcript in one format, with its media type. */
export function renderTranscript(format: TranscriptFormat, transcript: TranscriptToRender): RenderedTranscript {
  return { contentType: CONTENT_TYPES[format], body: RENDERERS[format](transcript) };
}

const RENDERERS: Record<TranscriptFormat, (transcript: TranscriptToRender) => string> = {
  json: ({ recordingId, language, segments, speakers }) =>
    JSON.stringify({
      recording_id: recordingId,
      language,
      text: segments.map((segment) => segment.text).join(' '),
      segments,
      ...(speakers ? { speakers: speakers.map(speakerView) } : {}),
    }),
  // WebVTT: a header, then cues separated by blank lines; the voice tag names the speaker.
  vtt: ({ segments }) =>
    [
      'WEBVTT',
      ...cuesOf(segments).map(
        ({ start, end, segment }) => `${vttTime(start)} --> ${vttTime(end)}\n<v ${vttText(segment.speaker)}>${vttText(segment.text)}`,
      ),
    ]
      .join('\n\n')
      .concat('\n'),
  // SubRip: numbered cues from 1; it has no voice tags, so the speaker leads the text.
  srt: ({ segments }) =>
    cuesOf(segments)
      .map(
        ({ start, end, segment }, index) =>
          `${index + 1}\n${srtTime(start)} --> ${srtTime(end)}\n${oneLine(segment.speaker)}: ${oneLine(segment.text)}\n`,
      )
      .join('\n'),
  txt: ({ segments }) => segments.map((segment) => `${oneLine(segment.speaker)}: ${oneLine(segment.text)}\n`).join(''),
};

/**
 * Cue times in whole milliseconds. Subtitle players need a cue to end after it starts and cue
 * starts in order (WebVTT requires the latter): a zero-length turn is shown for 1 ms.
 */
function cuesOf(segments: TranscriptSegment[]) {
  let previousStart = 0;
  return segments.map((segment) => {
    const start = Math.max(Math.round(segment.start * 1000), previousStart);
    const end = Math.max(Math.round(segment.end * 1000), start + 1);
    previousStart = start;
    return { start, end, segment };
  });
}

function clock(milliseconds: number, separator: '.' | ','): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const hours = Math.floor(milliseconds / 3_600_000);
  const minutes = Math.floor(milliseconds / 60_000) % 60;
  const secondsPart = Math.floor(milliseconds / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(secondsPart)}${separator}${pad(milliseconds % 1000, 3)}`;
}

const vttTime = (milliseconds: number) => clock(milliseconds, '.');
const srtTime = (milliseconds: number) => clock(milliseconds, ',');

/** Cue text on one line: a blank line would end the cue, and `-->` would read as a timing line. */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/-->/g, '->');
}

/** WebVTT cue text: &, < and > are markup there, so they are escaped as the W3C grammar asks. */
function vttText(text: string): string {
  return oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A safe file name for Content-Disposition: the title in ASCII letters, digits, dots,
 * dashes and underscores (accents dropped, other runs become one dash), at most 100
 * characters, `transcript` when nothing is left, and the format's extension.
 */
export function transcriptFileName(title: string, format: TranscriptFormat): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100)
    .replace(/[-.]+$/g, '');
  return `${base || 'transcript'}.${FILE_EXTENSIONS[format]}`;
}
