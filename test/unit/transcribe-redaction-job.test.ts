import { StartTranscriptionJobCommand, TranscribeClient } from '@aws-sdk/client-transcribe';
import { mockClient } from 'aws-sdk-client-mock';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTranscriptionJobs, type StartJob } from '../../shared/transcription/transcribe-jobs';
import { readTranscribeOutput, speakerTurnsOf } from '../../shared/transcription/transcribe-output';

/**
 * Transcribe's own PII redaction (docs/transcript-controls.md, "Redaction"): the adapter asks
 * for ContentRedaction (PII, only the redacted output, the entity types) when the job says so
 * and never otherwise, and the output reader makes speaker turns of a redacted output file as
 * Transcribe writes it (test/support/transcribe-output-samples/redacted-pii.json, in the shape of
 * AWS's "Example redacted output (batch)": one "[PII]" item per entity whose alternative carries
 * `redactions: [{ confidence, type, category: 'PII' }]`, `isRedacted: true`).
 */
const transcribe = mockClient(TranscribeClient);
const client = new TranscribeClient({ region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const jobs = createTranscriptionJobs(client);

const job: StartJob = {
  jobName: 'voice-org-rec_1-1',
  bucket: 'recordings',
  key: 'recordings/org_1/rec_1/call.wav',
  outputBucket: 'recordings',
  outputKey: 'recordings/org_1/rec_1/transcribe/1.json',
  language: { languageCode: 'en-US' },
  maxSpeakers: 10,
};

const sentInput = (index = 0) => transcribe.commandCalls(StartTranscriptionJobCommand)[index].args[0].input;

beforeEach(() => {
  transcribe.reset();
  transcribe.on(StartTranscriptionJobCommand).resolves({});
});
afterAll(() => client.destroy());

describe('TranscriptionJobs.start with redaction', () => {
  it('asks for PII redaction with only the redacted output, of the entity types given', async () => {
    await expect(jobs.start({ ...job, redactEntityTypes: ['CREDIT_DEBIT_NUMBER', 'EMAIL'] })).resolves.toBe('started');
    expect(sentInput().ContentRedaction).toEqual({
      RedactionType: 'PII',
      RedactionOutput: 'redacted',
      PiiEntityTypes: ['CREDIT_DEBIT_NUMBER', 'EMAIL'],
    });
    // The rest of the job as without redaction.
    expect(sentInput()).toMatchObject({ LanguageCode: 'en-US', Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: 10 } });
  });

  it('sends the list as a copy of the one given, in its order', async () => {
    const types = ['PHONE', 'NAME', 'SSN'];
    await jobs.start({ ...job, redactEntityTypes: types });
    types.push('EMAIL');
    expect(sentInput().ContentRedaction?.PiiEntityTypes).toEqual(['PHONE', 'NAME', 'SSN']);
  });

  it('sends no ContentRedaction without entity types, or with an empty list', async () => {
    await jobs.start(job);
    await jobs.start({ ...job, jobName: 'voice-org-rec_1-2', redactEntityTypes: [] });
    await jobs.start({ ...job, jobName: 'voice-org-rec_1-3', redactEntityTypes: undefined, vocabularyName: 'voice-org-org_1' });
    for (const index of [0, 1, 2]) expect(sentInput(index)).not.toHaveProperty('ContentRedaction');
    expect(sentInput(2).Settings).toEqual({ ShowSpeakerLabels: true, MaxSpeakerLabels: 10, VocabularyName: 'voice-org-org_1' });
  });
});

describe("a redacted Transcribe output (AWS's documented batch shape)", () => {
  const sample = JSON.parse(readFileSync(path.join(__dirname, '../support/transcribe-output-samples/redacted-pii.json'), 'utf8'));

  it('is read: the [PII] items with their redactions are items like any word', () => {
    const output = readTranscribeOutput(sample);
    const marks = output.results.items.filter((item) => item.alternatives[0].content === '[PII]');
    expect(marks).toHaveLength(3);
    expect(marks.map((item) => [item.start_time, item.end_time])).toEqual([
      [1.61, 2.55],
      [3.95, 7.46],
      [8.61, 9.87],
    ]);
    // The redaction's own fields are Transcribe's: the reader keeps what it uses and ignores the rest.
    expect(sample.results.items[11].alternatives[0].redactions).toEqual([
      { confidence: '0.9999', type: 'CREDIT_DEBIT_NUMBER', category: 'PII' },
    ]);
    expect(output.results.transcripts[0].transcript).toBe(
      'Hello, my name is [PII]. My card number is [PII] and you can email me at [PII]. Thanks.',
    );
  });

  it('gives speaker turns with [PII] in place of each entity, over its words’ times', () => {
    expect(speakerTurnsOf(readTranscribeOutput(sample))).toEqual([
      {
        speaker: 'Speaker 1',
        text: 'Hello, my name is [PII]. My card number is [PII] and you can email me at [PII].',
        start: 0.54,
        end: 9.87,
      },
      { speaker: 'Speaker 2', text: 'Thanks.', start: 10.43, end: 10.9 },
    ]);
  });

  it('is read the same without the ASR confidence on a [PII] alternative (the local stand-in writes none)', () => {
    const bare = structuredClone(sample);
    for (const item of bare.results.items) if (item.alternatives[0].content === '[PII]') delete item.alternatives[0].confidence;
    expect(speakerTurnsOf(readTranscribeOutput(bare))).toEqual(speakerTurnsOf(readTranscribeOutput(sample)));
  });
});
