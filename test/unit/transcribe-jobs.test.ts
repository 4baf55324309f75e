import {
  BadRequestException,
  NotFoundException,
  ConflictException,
  GetTranscriptionJobCommand,
  LimitExceededException,
  StartTranscriptionJobCommand,
  TranscribeClient,
} from '@aws-sdk/client-transcribe';
import { mockClient } from 'aws-sdk-client-mock';
import {
  createTranscriptionJobs,
  outputKeyOf,
  TranscriptionJobRefusedError,
  type StartJob,
} from '../../shared/transcription/transcribe-jobs';

const transcribe = mockClient(TranscribeClient);
const client = new TranscribeClient({ region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const jobs = createTranscriptionJobs(client);
const meta = { $metadata: {} };

const job: StartJob = {
  jobName: 'voice-org-rec_1-1',
  bucket: 'recordings',
  key: 'org/o1/rec_1/media',
  outputBucket: 'recordings',
  outputKey: 'org/o1/rec_1/transcribe/1.json',
  language: { languageCode: 'en-US' },
  maxSpeakers: 10,
};

beforeEach(() => transcribe.reset());
afterAll(() => client.destroy());

describe('TranscriptionJobs.start', () => {
  it('starts a batch job on the object, output under the given key, speaker labels on', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await expect(jobs.start(job)).resolves.toBe('started');
    expect(transcribe.commandCalls(StartTranscriptionJobCommand)[0].args[0].input).toEqual({
      TranscriptionJobName: 'voice-org-rec_1-1',
      Media: { MediaFileUri: 's3://recordings/org/o1/rec_1/media' },
      OutputBucketName: 'recordings',
      OutputKey: 'org/o1/rec_1/transcribe/1.json',
      LanguageCode: 'en-US',
      Settings: { ShowSpeakerLabels: true, MaxSpeakerLabels: 10 },
    });
  });

  it('asks Transcribe to identify the language when none is known, and keeps speakers within 2 to 30', async () => {
    transcribe.on(StartTranscriptionJobCommand).resolves({});
    await jobs.start({ ...job, language: { identify: true }, maxSpeakers: 100 });
    await jobs.start({ ...job, maxSpeakers: 1 });
    const [identify, few] = transcribe.commandCalls(StartTranscriptionJobCommand).map((call) => call.args[0].input);
    expect(identify).toMatchObject({ IdentifyLanguage: true, Settings: { MaxSpeakerLabels: 30 } });
    expect(identify.LanguageCode).toBeUndefined();
    expect(few.Settings?.MaxSpeakerLabels).toBe(2);
  });

  it('reads a name in use as already started, and the quota as throttled (the caller retries later)', async () => {
    transcribe
      .on(StartTranscriptionJobCommand)
      .rejects(new ConflictException({ message: 'The requested job name already exists.', ...meta }));
    await expect(jobs.start(job)).resolves.toBe('already-started');
    transcribe
      .reset()
      .on(StartTranscriptionJobCommand)
      .rejects(new LimitExceededException({ message: 'You have exceeded your limit.', ...meta }));
    await expect(jobs.start(job)).resolves.toBe('throttled');
  });

  it('throws a refusal for a job Transcribe will not run, and other errors as they are', async () => {
    transcribe
      .on(StartTranscriptionJobCommand)
      .rejects(new BadRequestException({ message: 'Speaker labels are not supported for this language.', ...meta }));
    await expect(jobs.start(job)).rejects.toEqual(new TranscriptionJobRefusedError('Speaker labels are not supported for this language.'));
    transcribe
      .reset()
      .on(StartTranscriptionJobCommand)
      .rejects(Object.assign(new Error('socket hang up'), { name: 'TimeoutError' }));
    await expect(jobs.start(job)).rejects.toThrow('socket hang up');
  });
});

describe('TranscriptionJobs.get', () => {
  it("reads a job's status, language, failure and output key", async () => {
    transcribe.on(GetTranscriptionJobCommand).resolves({
      TranscriptionJob: {
        TranscriptionJobName: 'voice-org-rec_1-1',
        TranscriptionJobStatus: 'COMPLETED',
        LanguageCode: 'de-DE',
        Transcript: { TranscriptFileUri: 'https://s3.eu-west-1.amazonaws.com/recordings/org/o1/rec_1/transcribe/1.json' },
      },
    });
    await expect(jobs.get('voice-org-rec_1-1')).resolves.toEqual({
      status: 'COMPLETED',
      failureReason: undefined,
      outputKey: 'org/o1/rec_1/transcribe/1.json',
      languageCode: 'de-DE',
      mediaSeconds: undefined,
    });
    transcribe
      .on(GetTranscriptionJobCommand)
      .resolves({ TranscriptionJob: { TranscriptionJobStatus: 'FAILED', FailureReason: 'Unsupported media format' } });
    await expect(jobs.get('voice-org-rec_1-1')).resolves.toMatchObject({ status: 'FAILED', failureReason: 'Unsupported media format' });
  });

  it('is undefined for a job Transcribe does not know', async () => {
    transcribe.on(GetTranscriptionJobCommand).rejects(
      new BadRequestException({
        message: "The requested job couldn't be found. Check the job name and try your request again.",
        ...meta,
      }),
    );
    await expect(jobs.get('voice-org-nope-1')).resolves.toBeUndefined();
    // The API reference's NotFoundException (a job past Transcribe's 90 days) reads the same: never as still running.
    transcribe.on(GetTranscriptionJobCommand).rejects(new NotFoundException({ message: "We can't find the requested resource.", ...meta }));
    await expect(jobs.get('voice-org-old-1')).resolves.toBeUndefined();
  });
});

describe('output keys', () => {
  it('reads the key of path-style and virtual-hosted transcript URIs', () => {
    expect(outputKeyOf('https://s3.us-east-1.amazonaws.com/bucket/a/b%20c.json')).toBe('a/b c.json');
    expect(outputKeyOf('http://127.0.0.1:4599/bucket/a/b.json')).toBe('a/b.json');
    expect(outputKeyOf('https://bucket.s3.us-east-1.amazonaws.com/a/b.json')).toBe('a/b.json');
    expect(outputKeyOf(undefined)).toBeUndefined();
    expect(outputKeyOf('not a url')).toBeUndefined();
  });
});
