import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadIdentityProvider, type LocalIdentityProvider } from '../../infra/local/identity-provider';
import type { LocalRuntime } from '../../infra/local/runtime-file';
import { seedFixture } from '../../shared/operator-tasks/fixture';
import { parseModelCatalog } from '../../shared/config';
import { localProfileCipher } from '../../infra/local/profile-key';
import type { Fixture } from '../../shared/schemas/fixture';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import * as v from 'valibot';
import { Fixture as FixtureSchema } from '../../shared/schemas/fixture';
import { contractViolation } from './contract';

let shared: { dataDir: string; runtime: LocalRuntime; db: TableContext } | undefined;

/** The shared local deployment that test/support/global-setup.ts started (one table client per test file). */
export function localDeployment(): { dataDir: string; runtime: LocalRuntime; db: TableContext } {
  const dataDir = process.env.TEST_LOCAL_DATA_DIR;
  if (!dataDir) throw new Error('integration and domain tests run under the integration or domain jest project (global setup)');
  if (shared?.dataDir !== dataDir) {
    const runtime = JSON.parse(readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as LocalRuntime;
    shared = {
      dataDir,
      runtime,
      db: createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint }),
    };
  }
  return shared;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * Sends one HTTP request to the local API, as a client would, and checks the response
 * against the OpenAPI document (test/support/contract.ts): a mismatch fails the test.
 */
export async function call<T = any>(
  apiUrl: string,
  method: string,
  pathAndQuery: string,
  options: { token?: string; authorization?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if ((options.body !== undefined || options.rawBody !== undefined) && !typed) headers['content-type'] = 'application/json';
  const response = await fetch(`${apiUrl}${pathAndQuery}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  // JSON, but the API reference's page and scripts (text/html, text/javascript) and the transcript's text
  // formats (text/vtt, application/x-subrip, text/plain) stay text.
  const contentType = response.headers.get('content-type') ?? '';
  const body = !text ? undefined : /^text\/|^application\/x-subrip/.test(contentType) ? text : JSON.parse(text);
  // The contract check: every response must be one the OpenAPI document allows.
  const violation = contractViolation(method, new URL(`${apiUrl}${pathAndQuery}`).pathname, response.status, body, response.headers.keys());
  if (violation) throw new Error(`Contract check failed (shared/openapi): ${violation}`);
  return { status: response.status, headers: response.headers, body };
}

/** An ISO 8601 UTC timestamp with milliseconds, as the API writes every date-time. */
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The error envelope of a refusal. The contract check already holds every envelope to the
 * document (no field beyond success, data, error, message and a 400's details).
 */
export function failure(error: string, message: unknown = expect.any(String)) {
  return expect.objectContaining({ success: false, data: null, error, message });
}

/** A refusal with this status and code. */
export function expectFailure(res: ApiResponse, status: number, error: string, message?: unknown): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual(failure(error, message));
}

/**
 * A setup several describe blocks of one file share (organizations they only read, or write
 * apart): made on first use, once per file, whichever block runs first.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** A short random suffix so each test builds its own organization. */
export const unique = () => randomBytes(4).toString('hex');

/**
 * Loads a fixture through the same code as `cli seed` (validated by the Fixture schema), as if
 * at `now`: a test that needs a later write to be later chooses a past `now` rather than wait.
 */
export async function seed(db: TableContext, fixture: v.InferInput<typeof FixtureSchema>, now = new Date()): Promise<void> {
  const { dataDir, runtime } = localDeployment();
  const settings = { db, cipher: localProfileCipher(dataDir), models: parseModelCatalog({}) };
  await seedFixture(
    { db, settings, trashRetentionDays: runtime.trashRetentionDays ?? 30 },
    v.parse(FixtureSchema, fixture) as Fixture,
    now,
  );
}

let identityProvider: Promise<LocalIdentityProvider> | undefined;

/** The local identity provider of the shared deployment (mints real RS256 ID tokens). */
export function idp(): Promise<LocalIdentityProvider> {
  const { dataDir, runtime } = localDeployment();
  identityProvider ??= loadIdentityProvider(dataDir, runtime.issuer, runtime.audience);
  return identityProvider;
}

/** An ID token for a user, as the CLI's `token` command mints it. */
export async function idTokenFor(user: { id: string; email: string }, expiresInSeconds?: number): Promise<string> {
  return (await idp()).issueIdToken({ sub: `local|${user.id}`, email: user.email }, expiresInSeconds);
}

/** An S3 client for the shared deployment's S3 emulator (s3rver checks its own fixed credentials). */
export function localS3(): { s3: S3Client; bucket: string } {
  const { runtime } = localDeployment();
  const s3 = new S3Client({
    region: runtime.region,
    endpoint: runtime.s3Endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return { s3, bucket: runtime.bucketName };
}

/** Keys and sizes of the objects under a prefix of the recordings bucket. */
export async function listObjects(prefix: string): Promise<{ key: string; size: number }[]> {
  const { s3, bucket } = localS3();
  const { Contents } = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (Contents ?? []).map((object) => ({ key: object.Key!, size: object.Size ?? 0 }));
}

/** An email as the local SES emulator stored it (GET {sesEndpoint}/store, what `cli mail list` reads). */
export interface SentEmail {
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

/** The emails the local SES emulator received for one address (compared case-insensitively), oldest first. */
export async function sentEmails(to: string, sesEndpoint = localDeployment().runtime.sesEndpoint): Promise<SentEmail[]> {
  const response = await fetch(`${sesEndpoint}/store`);
  if (!response.ok) throw new Error(`GET ${sesEndpoint}/store: ${response.status}`);
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails.filter((email) => email.destination.to.some((address) => address.toLowerCase() === to.toLowerCase()));
}
