import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config';

/** Uploaded recording files: pre-signed uploads and deletion. */
export interface RecordingObjects {
  /** A URL that accepts one PUT of `contentType` to `key` until it expires. */
  presignUpload(key: string, contentType: string, expiresInSeconds: number): Promise<string>;
  deleteObject(key: string): Promise<void>;
}

/** The S3 emulator (s3rver) knows only its own fixed access key (it does not check SigV4 signatures). */
const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export function createRecordingObjects(options: { bucket: string; region: string; endpoint?: string }): RecordingObjects {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    // The local S3 emulator: path-style addresses, any credentials, no streaming checksums.
    ...(options.endpoint
      ? { forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS, requestChecksumCalculation: 'WHEN_REQUIRED' as const }
      : {}),
  });
  return {
    presignUpload: (key, contentType, expiresIn) =>
      getSignedUrl(client, new PutObjectCommand({ Bucket: options.bucket, Key: key, ContentType: contentType }), {
        expiresIn,
        // Sign the content type, so the upload must declare the type it was issued for.
        signableHeaders: new Set(['content-type']),
      }),
    deleteObject: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
  };
}

let shared: RecordingObjects | undefined;

/** The function's recordings bucket, from config, created once per module. */
export function recordingObjects(): RecordingObjects {
  if (!shared) {
    const { bucket, region } = config();
    if (!bucket) throw new Error('Invalid configuration: BUCKET_NAME is required');
    shared = createRecordingObjects({ bucket: bucket.name, endpoint: bucket.endpoint, region });
  }
  return shared;
}

/**
 * Where a recording's upload is stored: recordings/<org>/<recording>/<file name>, the name
 * reduced to characters that need no escaping in a URL or an S3 event.
 */
export function recordingObjectKey(orgId: string, recordingId: string, filename: string): string {
  return `recordings/${orgId}/${recordingId}/${filename.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/** The org and recording an object key belongs to, or undefined for any other key. */
export function parseRecordingObjectKey(key: string): { orgId: string; recordingId: string } | undefined {
  const match = /^recordings\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/[^/]+$/.exec(key);
  return match ? { orgId: match[1], recordingId: match[2] } : undefined;
}
