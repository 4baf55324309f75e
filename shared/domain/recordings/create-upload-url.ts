import type { UserKeyCaller } from '../../auth/policy';
import { ValidationError } from '../../core/errors';
import { newId } from '../../ids';
import type { UploadUrlBody } from '../../schemas/recordings';
import type { TableContext } from '../../storage/dynamo';
import { recordingObjectKey, type RecordingObjects } from '../../storage/recording-objects';
import type { Recording } from '../../storage/recording-items';
import { assertOrgTags, createRecording } from './recording-changes';

export interface UploadDeps {
  db: TableContext;
  objects: RecordingObjects;
  now: () => Date;
  uploads: { urlTtlSeconds: number; maxBytes: number };
}

/**
 * Creates a recording in state pending_upload for the caller (a personal key's user) and
 * a pre-signed PUT URL for its file that signs the declared content type and length, so S3
 * refuses any other. The S3 completion event moves it to uploaded (or failed, when the
 * object is not the one declared). `headers` are the ones the PUT must send.
 */
export async function createUploadUrl(deps: UploadDeps, caller: UserKeyCaller, body: UploadUrlBody) {
  if (body.size_bytes > deps.uploads.maxBytes) {
    throw ValidationError.field('size_bytes', 'out_of_range', `must be at most ${deps.uploads.maxBytes} bytes`);
  }
  await assertOrgTags(deps.db, caller.orgId, body.tag_ids, 'tag_ids');
  const now = deps.now();
  const id = newId('rec');
  const s3Key = recordingObjectKey(caller.orgId, id, body.filename);
  const recording: Recording = {
    id,
    org_id: caller.orgId,
    recorded_by: caller.userId,
    title: body.title ?? body.filename.replace(/\.[^.]+$/, ''),
    description: '',
    duration: 0,
    language: body.language,
    tags: body.tag_ids,
    folder_id: body.folder_id ?? null,
    state: 'pending_upload',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    recording_at: body.recorded_at ?? now.toISOString(),
    upload: { s3_key: s3Key, content_type: body.content_type, filename: body.filename, size_bytes: body.size_bytes },
    related: { transcript: false, summary: false, action_items: false, translation: false },
  };
  await createRecording(deps, recording);
  const uploadUrl = await deps.objects.presignUpload(
    s3Key,
    { contentType: body.content_type, contentLength: body.size_bytes },
    deps.uploads.urlTtlSeconds,
  );
  return {
    recording_id: id,
    upload_url: uploadUrl,
    method: 'PUT' as const,
    headers: { 'content-type': body.content_type, 'content-length': String(body.size_bytes) },
    expires_at: new Date(now.getTime() + deps.uploads.urlTtlSeconds * 1000).toISOString(),
  };
}
