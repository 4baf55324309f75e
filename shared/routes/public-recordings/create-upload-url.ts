import { UploadUrlResponse } from '../../schemas/recording-responses';
import { UploadUrlBody } from '../../schemas/recordings';
import { ORG } from '../demo-examples';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';

export const createUploadUrlRoute = defineRoute({
  name: 'createUploadUrl',
  method: 'POST',
  path: '/api/v1/public/recordings/upload-url',
  handler: 'functions/public-recordings/create-upload-url',
  summary: 'Create a recording and a pre-signed URL to upload its file',
  access: { userKey: { scopes: ['recordings:write'], minRole: 'member' } },
  permissions: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], bucket: ['PutObject'] },
  request: { body: UploadUrlBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createUploadUrlDocs = (): OperationDocs => {
  const uploadUrlTarget = `https://voice-org-recordings.s3.eu-west-1.amazonaws.com/recordings/${ORG}/rec_8f2a4c6e0b1d3f5a7c9e/original?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=…`;
  return {
    description:
      "Creates a recording in state `pending_upload`, recorded by the key's member, and answers a pre-signed URL: PUT the file there with the headers given; when it lands the recording is `uploaded` (or `failed` if it is not the declared size and type).",
    responses: { 201: UploadUrlResponse },
    errors: { 409: ['CONCURRENT_UPDATE'] },
    examples: {
      request: {
        filename: 'client-call.m4a',
        content_type: 'audio/mp4',
        size_bytes: 48_213_504,
        title: 'Client call',
        language: 'en',
        tag_ids: ['tag_demo_sales'],
      },
      responses: {
        201: {
          success: true,
          data: {
            recording_id: 'rec_8f2a4c6e0b1d3f5a7c9e',
            upload_url: uploadUrlTarget,
            method: 'PUT',
            headers: { 'content-type': 'audio/mp4', 'content-length': '48213504' },
            expires_at: '2026-11-20T10:15:00.000Z',
          },
        },
      },
    },
    sample: (ids) => ({
      credential: 'personalKey',
      body: {
        filename: 'customer-interview.m4a',
        content_type: 'audio/mp4',
        size_bytes: ids.uploadBytes,
        title: 'Customer interview',
        language: 'en',
        tag_ids: [ids.tagId],
      },
      status: 201,
    }),
  };
};
