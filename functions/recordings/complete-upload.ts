import type { S3Event } from 'aws-lambda';
import { completeUpload } from '../../shared/domain/recordings/recording-changes';
import { logger } from '../../shared/observability/logger';
import { table } from '../../shared/storage/dynamo';
import { parseRecordingObjectKey } from '../../shared/storage/recording-objects';

/**
 * S3 ObjectCreated on the recordings bucket: the uploaded file's recording becomes
 * `uploaded`, with the object's size. Keys that name no pending recording are ignored.
 */
export async function handler(event: S3Event): Promise<void> {
  for (const record of event.Records ?? []) {
    // S3 sends object keys URL-encoded, with + for spaces.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const owner = parseRecordingObjectKey(key);
    const outcome = owner
      ? await completeUpload({ db: table(), now: () => new Date() }, owner.orgId, owner.recordingId, key, record.s3.object.size)
      : 'ignored';
    logger.info('upload event', { event_name: record.eventName, outcome, org_id: owner?.orgId, recording_id: owner?.recordingId });
  }
}
