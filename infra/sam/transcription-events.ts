import type { Actor } from '../../shared/schemas/event-catalog';
import { jobNameOf } from '../../shared/domain/transcription/transcription-changes';
import { recordingItem, type Recording } from '../../shared/storage/recording-items';
import { recordingObjectKey } from '../../shared/storage/recording-objects';
import type { SampleSetup } from './sample-setup';

/**
 * The transcription's part of the sample pipeline events (infra/sam/pipeline-events.ts): the
 * stream changes that give `recording.uploaded` (the automatic transcription's cue) and
 * `recording.transcription_queued` (the job start's), and Transcribe's job state change the
 * finisher's queue receives from the account's default bus.
 */
type Item = Record<string, unknown>;

/** The two recording changes, before and after, with the stamps their writers leave. */
export function transcriptionStreamChanges(
  setup: SampleSetup,
  at: { earlier: string; changed: string },
  stampFor: (name: string, actor: Actor | null) => Item,
): { before: Item; after: Item }[] {
  const { ids } = setup;
  const recording = (id: string, filename: string): Recording => ({
    id,
    org_id: ids.orgId,
    recorded_by: ids.memberId,
    title: 'Customer interview',
    description: '',
    duration: 0,
    language: 'en',
    tags: [],
    folder_id: null,
    state: 'pending_upload',
    created_at: at.earlier,
    updated_at: at.earlier,
    recording_at: at.earlier,
    upload: { s3_key: recordingObjectKey(ids.orgId, id, filename), content_type: 'audio/mp4', filename, size_bytes: ids.uploadBytes },
    related: { transcript: false, summary: false, action_items: false, translation: false },
  });
  // The upload completion: the file landed as declared (recording.uploaded).
  const pending = recording(ids.uploadRecordingId, ids.uploadFilename);
  const landed: Recording = {
    ...pending,
    state: 'uploaded',
    updated_at: at.changed,
    upload: { ...pending.upload!, uploaded_bytes: ids.uploadBytes, uploaded_content_type: 'audio/mp4', uploaded_at: at.changed },
  };
  // Its automatic transcription, queued (recording.transcription_queued).
  const queued: Recording = {
    ...landed,
    state: 'processing',
    updated_at: new Date(Date.parse(at.changed) + 1500).toISOString(),
    transcription: {
      status: 'queued',
      attempt: 1,
      job_language: 'en-US',
      queued_at: new Date(Date.parse(at.changed) + 1500).toISOString(),
      watch_due_at: new Date(Date.parse(at.changed) + 601_500).toISOString(),
    },
  };
  return [
    {
      before: { ...recordingItem(pending), ...stampFor('upload-url-created', null) },
      after: { ...recordingItem(landed), ...stampFor('upload-completed', null) },
    },
    {
      before: { ...recordingItem(landed), ...stampFor('upload-completed', null) },
      after: { ...recordingItem(queued), ...stampFor('transcription-queued', null) },
    },
  ];
}

/** Transcribe's job state change of the queued attempt above, as EventBridge puts it on the finisher's queue. */
export function sampleTranscribeJobEvent(setup: SampleSetup, at: string) {
  return {
    version: '0',
    id: '5a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    'detail-type': 'Transcribe Job State Change',
    source: 'aws.transcribe',
    account: '123456789012',
    time: at.replace(/\.\d{3}Z$/, 'Z'),
    region: setup.region,
    resources: [],
    detail: { TranscriptionJobName: jobNameOf(setup.ids.orgId, setup.ids.uploadRecordingId, 1), TranscriptionJobStatus: 'COMPLETED' },
  };
}
