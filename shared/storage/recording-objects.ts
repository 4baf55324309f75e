import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { bucketClient } from './bucket-client';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../config';

/** What an upload URL is issued for: the exact type and length the PUT must declare. */
export interface UploadDeclaration {
  contentType: string;
  contentLength: number;
}

/** The headers S3 answers a pre-signed GET with, instead of the object's own. */
export interface DownloadHeaders {
  contentType: string;
  contentDisposition: string;
}

/** What deleting a prefix removed. */
export interface PrefixDeletion {
  /** Objects deleted (0 when none was left). */
  objects: number;
  /** Unfinished multipart uploads aborted (their parts are not objects, so listing misses them). */
  uploadsAborted: number;
}

/** Uploaded recording files: pre-signed uploads, what landed, and deletion. */
export interface RecordingObjects {
  /**
   * A URL that accepts PUTs to `key` until it expires, only with exactly the declared
   * `content-type` and `content-length` headers (both are signed).
   */
  presignUpload(key: string, declared: UploadDeclaration, expiresInSeconds: number): Promise<string>;
  /**
   * A URL that GETs `key` until it expires, S3 answering with these Content-Type and
   * Content-Disposition headers (response-content-* parameters, signed into the URL).
   * Signed locally: no request reaches S3, whether or not the object exists.
   */
  presignDownload(key: string, headers: DownloadHeaders, expiresInSeconds: number, signedAt: Date): Promise<string>;
  /** The stored object's content type (HeadObject), or undefined when no object is at `key`. */
  storedContentType(key: string): Promise<string | undefined>;
  /**
   * Deletes every object under a recording's prefix (`recordings/<org>/<recording>/`) and
   * aborts its unfinished multipart uploads. Idempotent: nothing left is a success. Throws
   * when S3 refuses any of it, so the caller can try again.
   */
  deletePrefix(prefix: string): Promise<PrefixDeletion>;
  /** The object at `key` parsed as JSON (Transcribe's output), or undefined when there is none. */
  readJson(key: string): Promise<unknown>;
  /** Deletes the object at `key`; nothing there is a success. */
  deleteObject(key: string): Promise<void>;
}

/** Headers S3 must see exactly as signed; the presigner would otherwise leave content-type unsigned. */
const SIGNED_UPLOAD_HEADERS = new Set(['content-type', 'content-length']);

/** Creates the recordings bucket's object operations for one bucket (the S3 emulator's when `endpoint` is set). */
export function createRecordingObjects(options: { bucket: string; region: string; endpoint?: string }): RecordingObjects {
  const client = bucketClient(options);
  return {
    presignUpload: (key, declared, expiresIn) =>
      getSignedUrl(
        client,
        new PutObjectCommand({
          Bucket: options.bucket,
          Key: key,
          ContentType: declared.contentType,
          ContentLength: declared.contentLength,
        }),
        { expiresIn, signableHeaders: SIGNED_UPLOAD_HEADERS },
      ),
    presignDownload: (key, headers, expiresIn, signingDate) =>
      getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket: options.bucket,
          Key: key,
          ResponseContentType: headers.contentType,
          ResponseContentDisposition: headers.contentDisposition,
        }),
        { expiresIn, signingDate },
      ),
    storedContentType: async (key) => {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: options.bucket, Key: key }));
        return head.ContentType ?? '';
      } catch (error) {
        if (
          (error as Error).name === 'NotFound' ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
        )
          return undefined;
        throw error;
      }
    },
    readJson: async (key) => {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: options.bucket, Key: key }));
        return JSON.parse((await object.Body?.transformToString('utf8')) ?? 'null') as unknown;
      } catch (error) {
        if (
          (error as Error).name === 'NoSuchKey' ||
          (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
        )
          return undefined;
        throw error;
      }
    },
    deleteObject: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
    deletePrefix: async (prefix) => {
      // A guard against a key or an empty prefix reaching here: this deletes everything under it.
      if (!/^recordings\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+\/$/.test(prefix))
        throw new Error(`Refusing to delete objects under ${JSON.stringify(prefix)}: not a recording's prefix`);
      const Bucket = options.bucket;
      let objects = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (keys.length) {
          // At most 1,000 keys a page, the most one DeleteObjects takes.
          const { Errors } = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
          if (Errors?.length)
            throw new Error(`S3 kept ${Errors.length} object(s) under ${prefix}: ${Errors.map((e) => `${e.Key} ${e.Code}`).join(', ')}`);
          objects += keys.length;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return { objects, uploadsAborted: await abortUploads(client, Bucket, prefix) };
    },
  };
}

/**
 * Aborts the unfinished multipart uploads under a prefix. The S3 emulator (s3rver) does not
 * implement ListMultipartUploads (NotImplemented): locally there is then nothing to abort
 * (the bucket's lifecycle rule also aborts any upload left after a day in AWS).
 */
async function abortUploads(client: S3Client, Bucket: string, Prefix: string): Promise<number> {
  let aborted = 0;
  let KeyMarker: string | undefined;
  let UploadIdMarker: string | undefined;
  do {
    let page;
    try {
      page = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix, KeyMarker, UploadIdMarker }));
    } catch (error) {
      if ((error as Error).name === 'NotImplemented') return aborted;
      throw error;
    }
    for (const upload of page.Uploads ?? []) {
      if (!upload.Key || !upload.UploadId) continue;
      try {
        await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
      } catch (error) {
        // Completed or aborted since it was listed: nothing left to abort.
        if ((error as Error).name !== 'NoSuchUpload') throw error;
      }
      aborted += 1;
    }
    [KeyMarker, UploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
  } while (KeyMarker);
  return aborted;
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
  return `${recordingObjectPrefix(orgId, recordingId)}${filename.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/** The prefix every object of one recording is stored under (its upload, and any later one). */
export function recordingObjectPrefix(orgId: string, recordingId: string): string {
  return `recordings/${orgId}/${recordingId}/`;
}

/** The org and recording an object key belongs to, or undefined for any other key. */
export function parseRecordingObjectKey(key: string): { orgId: string; recordingId: string } | undefined {
  const match = /^recordings\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)\/[^/]+$/.exec(key);
  return match ? { orgId: match[1], recordingId: match[2] } : undefined;
}
