import { createHash, createHmac } from 'node:crypto';
import { uploadMismatch } from '../../shared/domain/recordings/complete-upload';
import { createRecordingObjects } from '../../shared/storage/recording-objects';

/**
 * Upload URLs sign the declared content type and length, so S3 itself refuses a PUT of any
 * other. The S3 emulator does not verify signatures, so this suite checks the URL
 * with an independent SigV4 verifier: what S3 computes from the request it receives.
 */

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLEUPLOADS', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const KEY = 'recordings/org_a/rec_b/standup.m4a';
const DECLARED = { contentType: 'audio/mp4', contentLength: 5 };

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Whether S3 would accept a PUT (or GET) of this pre-signed URL with these headers: recomputes the
 * SigV4 query signature from the request as sent (AWS SigV4 "presigned URL" rules) and
 * compares. A signed header the request lacks or changes gives another signature.
 */
function s3WouldAccept(presigned: string, sent: Record<string, string>, secretAccessKey: string, method: 'PUT' | 'GET' = 'PUT'): boolean {
  const url = new URL(presigned);
  const query = [...url.searchParams.entries()].filter(([name]) => name !== 'X-Amz-Signature');
  const canonicalQuery = query
    .map(([name, value]) => [rfc3986(name), rfc3986(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers: Record<string, string> = {
    host: url.host,
    ...Object.fromEntries(Object.entries(sent).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders')!;
  const names = signedHeaders.split(';');
  if (names.some((name) => headers[name] === undefined)) return false;
  const canonicalHeaders = names.map((name) => `${name}:${headers[name].trim()}\n`).join('');
  const canonicalRequest = [
    method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    url.searchParams.get('X-Amz-Content-Sha256'),
  ].join('\n');
  const [, date, region, service] = url.searchParams.get('X-Amz-Credential')!.split('/');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    url.searchParams.get('X-Amz-Date'),
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
  return hmac(signingKey, stringToSign).toString('hex') === url.searchParams.get('X-Amz-Signature');
}

describe('upload URLs (AWS)', () => {
  const saved = { ...process.env };
  let url: URL;

  beforeAll(async () => {
    // The default credential chain reads these first: no profile, no instance metadata.
    for (const name of ['AWS_PROFILE', 'AWS_SESSION_TOKEN', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'])
      delete process.env[name];
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey });
    const objects = createRecordingObjects({ bucket: 'voice-org-recordings', region: 'eu-west-1' });
    url = new URL(await objects.presignUpload(KEY, DECLARED, 900));
  });
  afterAll(() => {
    process.env = saved;
  });

  it('signs exactly content-length, content-type and host, for the declared lifetime', () => {
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(decodeURIComponent(url.pathname)).toBe(`/${KEY}`);
  });

  it('carries no checksum of the empty body the SDK would otherwise add (no real file has it)', () => {
    const names = [...url.searchParams.keys()].map((name) => name.toLowerCase());
    expect(names.filter((name) => name.startsWith('x-amz-checksum') || name === 'x-amz-sdk-checksum-algorithm')).toEqual([]);
  });

  it('S3 accepts the declared type and length, and refuses any other length or type', () => {
    const declared = { 'content-type': 'audio/mp4', 'content-length': '5' };
    expect(s3WouldAccept(url.href, declared, CREDENTIALS.secretAccessKey)).toBe(true);
    expect(s3WouldAccept(url.href, { ...declared, 'content-length': '20' }, CREDENTIALS.secretAccessKey)).toBe(false);
    expect(s3WouldAccept(url.href, { ...declared, 'content-length': '4' }, CREDENTIALS.secretAccessKey)).toBe(false);
    expect(s3WouldAccept(url.href, { ...declared, 'content-type': 'audio/mpeg' }, CREDENTIALS.secretAccessKey)).toBe(false);
    expect(s3WouldAccept(url.href, { 'content-type': 'audio/mp4' }, CREDENTIALS.secretAccessKey)).toBe(false);
  });
});

describe('upload URLs (S3 emulator)', () => {
  it('sign the same headers as in AWS', async () => {
    const objects = createRecordingObjects({ bucket: 'voice-org-recordings', region: 'us-east-1', endpoint: 'http://127.0.0.1:4569' });
    const url = new URL(await objects.presignUpload(KEY, { contentType: 'audio/mpeg', contentLength: 1024 ** 3 }, 60));
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(s3WouldAccept(url.href, { 'content-type': 'audio/mpeg', 'content-length': String(1024 ** 3) }, 'S3RVER')).toBe(true);
    expect(s3WouldAccept(url.href, { 'content-type': 'audio/mpeg', 'content-length': '1' }, 'S3RVER')).toBe(false);
  });
});

describe('media URLs (AWS)', () => {
  const saved = { ...process.env };
  const signedAt = new Date('2026-11-20T10:00:00.000Z');
  const headers = {
    contentType: 'audio/mp4',
    contentDisposition: `inline; filename="Memo vocal.m4a"; filename*=UTF-8''M%C3%A9mo%20vocal.m4a`,
  };
  let url: URL;

  beforeAll(async () => {
    for (const name of ['AWS_PROFILE', 'AWS_SESSION_TOKEN', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI'])
      delete process.env[name];
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey });
    const objects = createRecordingObjects({ bucket: 'voice-org-recordings', region: 'eu-west-1' });
    url = new URL(await objects.presignDownload(KEY, headers, 900, signedAt));
  });
  afterAll(() => {
    process.env = saved;
  });

  it('is a GET of the object for the given lifetime from the given time, signing the host alone', () => {
    expect(decodeURIComponent(url.pathname)).toBe(`/${KEY}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-Date')).toBe('20261120T100000Z');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(s3WouldAccept(url.href, {}, CREDENTIALS.secretAccessKey, 'GET')).toBe(true);
  });

  it('carries the content type and disposition S3 answers with, under the signature: changing them breaks it', () => {
    expect(url.searchParams.get('response-content-type')).toBe('audio/mp4');
    expect(url.searchParams.get('response-content-disposition')).toBe(headers.contentDisposition);
    const tampered = new URL(url.href);
    tampered.searchParams.set('response-content-disposition', 'attachment; filename="x.m4a"');
    expect(s3WouldAccept(tampered.href, {}, CREDENTIALS.secretAccessKey, 'GET')).toBe(false);
    const retyped = new URL(url.href);
    retyped.searchParams.set('response-content-type', 'text/html');
    expect(s3WouldAccept(retyped.href, {}, CREDENTIALS.secretAccessKey, 'GET')).toBe(false);
  });

  it('asks for no checksum (x-amz-checksum-mode): a browser playing the file checks none', () => {
    const names = [...url.searchParams.keys()].map((name) => name.toLowerCase());
    expect(names.filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
  });
});

describe('uploadMismatch: what the completion records when an object is not the declared one', () => {
  const declared = { size_bytes: 5, content_type: 'audio/mp4' };

  it('none when size and type match (the type case-insensitively)', () => {
    expect(uploadMismatch(declared, { sizeBytes: 5, contentType: 'audio/mp4' })).toBeUndefined();
    expect(uploadMismatch(declared, { sizeBytes: 5, contentType: 'Audio/MP4' })).toBeUndefined();
  });

  it('names the declared and received size', () => {
    expect(uploadMismatch(declared, { sizeBytes: 20, contentType: 'audio/mp4' })).toBe('size_mismatch: declared 5 bytes, received 20');
  });

  it('names the declared and received type', () => {
    expect(uploadMismatch(declared, { sizeBytes: 5, contentType: 'audio/mpeg' })).toBe(
      'content_type_mismatch: declared audio/mp4, received audio/mpeg',
    );
    expect(uploadMismatch(declared, { sizeBytes: 5, contentType: '' })).toBe('content_type_mismatch: declared audio/mp4, received (none)');
  });

  it('names both when both differ', () => {
    expect(uploadMismatch(declared, { sizeBytes: 0, contentType: 'video/mp4' })).toBe(
      'size_mismatch: declared 5 bytes, received 0; content_type_mismatch: declared audio/mp4, received video/mp4',
    );
  });

  it('judges an object gone before its type was read by its size alone', () => {
    expect(uploadMismatch(declared, { sizeBytes: 5 })).toBeUndefined();
    expect(uploadMismatch(declared, { sizeBytes: 6 })).toBe('size_mismatch: declared 5 bytes, received 6');
  });
});
