import { DeleteObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { bucketClient } from './bucket-client';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Readable } from 'node:stream';
import { config } from '../config';

/**
 * The objects a member's export reads and writes in the recordings bucket: the recorded files
 * it copies (recordings/…), and its ZIP (exports/…), uploaded as a stream in parts and
 * downloaded with a pre-signed URL.
 */
export interface ExportObjects {
  /**
   * Uploads a stream to `key` as it is produced: a multipart upload of 5 MB parts, two in flight
   * (a body under one part is a single PutObject), so memory holds about 10 MB whatever the size.
   * A failed upload is aborted (the bucket's lifecycle aborts any it could not).
   */
  uploadStream(key: string, body: Readable, contentType: string): Promise<void>;
  /** The object at `key` as a stream, or undefined when there is none (deleted since it was listed). */
  openObject(key: string): Promise<Readable | undefined>;
  /** A URL that GETs `key` until it expires, answered as a download named `filename`. Signed locally. */
  presignDownload(key: string, filename: string, expiresInSeconds: number, signedAt: Date): Promise<string>;
  /** Deletes the object at `key`; nothing there is a success. */
  deleteObject(key: string): Promise<void>;
}

/** The part size and how many parts are sent at once: S3's smallest part, and a bound on memory. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export function createExportObjects(options: { bucket: string; region: string; endpoint?: string }): ExportObjects {
  const Bucket = options.bucket;
  const client = bucketClient(options);
  return {
    uploadStream: async (key, body, contentType) => {
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    openObject: async (key) => {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return object.Body as Readable | undefined;
      } catch (error) {
        if (
          (error as Error).name === 'NoSuchKey' ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
        )
          return undefined;
        throw error;
      }
    },
    presignDownload: (key, filename, expiresIn, signingDate) =>
      getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: key,
          ResponseContentType: 'application/zip',
          ResponseContentDisposition: `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
        }),
        { expiresIn, signingDate },
      ),
    deleteObject: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}

let shared: ExportObjects | undefined;

/** The function's recordings bucket, from config, created once per module. */
export function exportObjects(): ExportObjects {
  if (!shared) {
    const { bucket, region } = config();
    if (!bucket) throw new Error('Invalid configuration: BUCKET_NAME is required');
    shared = createExportObjects({ bucket: bucket.name, endpoint: bucket.endpoint, region });
  }
  return shared;
}
