import { S3Client } from '@aws-sdk/client-s3';
import { traced } from '../observability/tracer';

/** The S3 emulator (s3rver) knows only its own fixed access key (it does not check SigV4 signatures). */
const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3 client for the recordings bucket (the S3 emulator's when `endpoint` is set), as every
 * object store of the bucket uses it (recording-objects.ts, export-objects.ts, vocabulary-files.ts).
 */
export function bucketClient(options: { region: string; endpoint?: string }): S3Client {
  return traced(
    new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      // Otherwise the SDK (since 3.729) adds the CRC32 of a presign's empty body to every upload URL
      // (x-amz-checksum-crc32=AAAAAA==), which no real file has, and sends streamed bodies with
      // aws-chunked checksum framing, which s3rver stores as is: a request binds only what it declares.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      // Likewise a signed GET would carry x-amz-checksum-mode=ENABLED: a browser checks no checksum.
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The local S3 emulator: path-style addresses, its own fixed credentials.
      ...(options.endpoint ? { forcePathStyle: true, credentials: LOCAL_S3_CREDENTIALS } : {}),
    }),
  );
}
