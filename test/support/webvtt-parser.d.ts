/** W3C's WebVTT parser and validator (webvtt-parser, w3c/webvtt.js) ships no types: the part the tests use. */
declare module 'webvtt-parser' {
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: {
      children: {
        type: string;
        name?: string;
        /** A voice span's annotation: the speaker. */ value?: string;
        children?: { type: string; value?: string }[];
      }[];
    };
  }
  export interface WebVTTParseError {
    message: string;
    line: number;
    col: number;
  }
  export class WebVTTParser {
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: 'metadata' | 'chapters'): { cues: WebVTTCue[]; errors: WebVTTParseError[]; time: number };
  }
}
declare module 'webvtt-parser/html-entities.json' {
  const entities: Record<string, string>;
  export default entities;
}
