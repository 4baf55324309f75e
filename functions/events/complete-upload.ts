import { uploadCompletionDeps } from '../../shared/wiring/recording-deps';
import type { S3Event } from 'aws-lambda';
import { completeUpload } from '../../shared/domain/recordings/complete-upload';
import { instrumented } from '../../shared/observability/instrumentation';
import { logger } from '../../shared/observability/logger';
import { countMetric } from '../../shared/observability/metrics';
import { parseRecordingObjectKey } from '../../shared/storage/recording-objects';

/**
 * S3 ObjectCreated on the recordings bucket: the uploaded file's recording becomes
 * `uploaded` when the object has the declared size and content type, else `failed` with
 * the reason. Keys that name no pending recording are ignored.
 */
export const handler = instrumented(
  async (event: S3Event): Promise<void> => {
    for (const record of event.Records ?? []) {
      // S3 sends object keys URL-encoded, with + for spaces.
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      const owner = parseRecordingObjectKey(key);
      const outcome = owner
        ? await completeUpload(uploadCompletionDeps(), owner.orgId, owner.recordingId, { s3Key: key, sizeBytes: record.s3.object.size })
        : 'ignored';
      const fields = {
        event_name: record.eventName,
        outcome,
        org_id: owner?.orgId,
        recording_id: owner?.recordingId,
        size_bytes: record.s3.object.size,
      };
      // A mismatched upload is the client's doing, not the function's: worth a warning, not a retry.
      if (outcome === 'failed') logger.warn('upload does not match its declaration', fields);
      else logger.info('upload event', fields);
      if (outcome === 'uploaded') countMetric('UploadsCompleted');
    }
  },
  { function: 'completeUpload' },
);
