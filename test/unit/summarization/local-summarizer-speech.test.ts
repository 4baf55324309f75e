import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { recognizeSpeech, transcribeOutputOf } from '../../../infra/local/local-speech-engine';
import { summarizeTranscript } from '../../../infra/local/local-summarizer';
import { BUILT_IN_TEMPLATE } from '../../../shared/summarization/built-in-template';
import { readTranscribeOutput, speakerTurnsOf } from '../../../shared/transcription/transcribe-output';
import { MEETING, speechAvailable, spokenMeeting } from '../../support/speech';

/**
 * The local engines end to end, below the API: the test meeting spoken by Flite, heard by
 * the local speech engine (Moonshine), read as Transcribe's output into turns, summarized by the local engine. The
 * action item must come out of what the speech engine heard. Skipped without the Debian packages
 * (test/support/speech.ts fails under CI instead).
 */
if (!speechAvailable) console.warn('Skipping the spoken meeting summary: install the Debian packages flite sox.');
const describeWithSpeech = speechAvailable ? describe : describe.skip;

describeWithSpeech('a spoken meeting, transcribed and summarized offline', () => {
  it(`finds "Maria will send the contract by Friday" in what the local engine heard of: ${MEETING}`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spoken-summary-'));
    try {
      writeFileSync(path.join(dir, 'meeting.wav'), spokenMeeting().wav);
      const { words } = await recognizeSpeech(path.join(dir, 'meeting.wav'));
      const turns = speakerTurnsOf(readTranscribeOutput(transcribeOutputOf('meeting', words, 'en-US', { speakerLabels: false })));
      const summary = summarizeTranscript({ sections: BUILT_IN_TEMPLATE.sections, language: 'English', day: '2026-11-24', lines: turns });
      expect(summary.sections.map((section) => section.title)).toEqual(['Overview', 'Key points', 'Decisions', 'Action items']);
      expect(summary.action_items).toContainEqual(
        expect.objectContaining({ text: 'Send the contract', assignee: 'Maria', due_date: '2026-11-27' }),
      );
      console.log(`Heard: "${turns.map((turn) => turn.text).join(' ')}"; action items: ${JSON.stringify(summary.action_items)}.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
