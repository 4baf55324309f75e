import { transcriptionEventsOf } from '../../shared/events/transcription-events';
import {
  completedRecording,
  discardedRecording,
  failedRecording,
  jobNameOf,
  jobOf,
  queuedRecording,
  recheckedRecording,
  restampedAt,
  startedRecording,
} from '../../shared/domain/transcription/transcription-changes';
import type { Recording, RecordingTranscription } from '../../shared/storage/recording-items';

/** The transcription's transitions and the events their changes give: queued, completed, failed; nothing for a watch move or a discarded run. */
const base: Recording = {
  id: 'rec_1',
  org_id: 'org_1',
  recorded_by: 'usr_1',
  title: 'Call',
  description: '',
  duration: 0,
  language: 'en',
  tags: [],
  folder_id: null,
  state: 'uploaded',
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
  recording_at: '2030-01-01T00:00:00.000Z',
  related: { transcript: false, summary: false, action_items: false, translation: false },
};
const now = new Date('2030-01-01T00:00:00.000Z');
type Running = Recording & { transcription: RecordingTranscription };

describe('transcription events', () => {
  const queued = queuedRecording(base, now, 'en-US') as Running;
  const started = startedRecording(queued, now, jobNameOf('org_1', 'rec_1', 1)) as Running;

  it('a re-run is the next attempt, without the previous error', () => {
    const failed = failedRecording(started, now, { code: 'UNSUPPORTED_MEDIA', reason: 'not audio' });
    expect(queuedRecording(failed, now, 'identify')).toMatchObject({
      state: 'processing',
      transcription: { status: 'queued', attempt: 2, job_language: 'identify' },
    });
    expect(queuedRecording(failed, now, 'identify').transcript_error).toBeUndefined();
  });

  it('a new attempt is queued, once', () => {
    expect(transcriptionEventsOf(base, queued)).toEqual([
      { type: 'recording.transcription_queued', data: { attempt: 1, language: 'en-US' }, occurredAt: queued.transcription.queued_at },
    ]);
    expect(transcriptionEventsOf(queued, started)).toEqual([]);
    expect(transcriptionEventsOf(started, recheckedRecording(started, now, 60_000))).toEqual([]);
  });

  it('completed carries language, duration, billed minutes and segment count, never text', () => {
    const done = completedRecording(started, now, {
      language: 'en-US',
      durationSeconds: 61.5,
      billedMinutes: 2,
      segmentCount: 4,
      speakers: [{ label: 'Speaker 1', name: null, user_id: null, talk_time_seconds: 60, turn_count: 4 }],
    });
    expect(transcriptionEventsOf(started, done)).toEqual([
      {
        type: 'recording.transcription_completed',
        data: { attempt: 1, language: 'en-US', duration: 61.5, billed_minutes: 2, segment_count: 4 },
        occurredAt: now.toISOString(),
      },
    ]);
    expect(transcriptionEventsOf(done, done)).toEqual([]);
  });

  it('failed carries the error code', () => {
    const failed = failedRecording(started, now, { code: 'UNSUPPORTED_MEDIA', reason: 'not audio' });
    expect(transcriptionEventsOf(started, failed)).toEqual([
      { type: 'recording.transcription_failed', data: { attempt: 1, error_code: 'UNSUPPORTED_MEDIA' }, occurredAt: now.toISOString() },
    ]);
    expect(failed.state).toBe('ready');
  });

  it('a run discarded with its recording in the trash says nothing', () => {
    expect(transcriptionEventsOf(started, discardedRecording(started, now))).toEqual([]);
  });

  it('each transition moves updated_at forward, even within one millisecond', () => {
    expect(Date.parse(restampedAt(started, now))).toBeGreaterThan(Date.parse(started.updated_at));
  });

  it('job names name the organization, recording and attempt, and read back', () => {
    expect(jobNameOf('org_a-b', 'rec_c_d', 12)).toBe('voice-org.org_a-b.rec_c_d.12');
    expect(jobOf('voice-org.org_a-b.rec_c_d.12')).toEqual({ orgId: 'org_a-b', recordingId: 'rec_c_d', attempt: 12 });
    expect(jobOf('someone-else-job')).toBeUndefined();
  });
});
