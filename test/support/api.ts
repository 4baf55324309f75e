import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadIdentityProvider, type LocalIdentityProvider } from '../../infra/local/identity-provider';
import type { LocalRuntime } from '../../infra/local/runtime-file';
import { seedFixture } from '../../shared/domain/admin/fixture';
import { parseModelCatalog } from '../../shared/config';
import { localProfileCipher } from '../../infra/local/profile-key';
import type { Fixture } from '../../shared/schemas/fixture';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import * as v from 'valibot';
import { Fixture as FixtureSchema } from '../../shared/schemas/fixture';

/** The shared local deployment that test/support/global-setup.ts started. */
export function localDeployment(): { dataDir: string; runtime: LocalRuntime; db: TableContext } {
  const dataDir = process.env.TEST_LOCAL_DATA_DIR;
  if (!dataDir) throw new Error('integration tests run under the integration jest project (global setup)');
  const runtime = JSON.parse(readFileSync(path.join(dataDir, 'runtime.json'), 'utf8')) as LocalRuntime;
  return { dataDir, runtime, db: createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint }) };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Sends one HTTP request to the local API, as a client would. */
export async function call<T = any>(
  apiUrl: string,
  method: string,
  pathAndQuery: string,
  options: { token?: string; authorization?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${apiUrl}${pathAndQuery}`, {
    method,
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A short random suffix so each test builds its own organization. */
export const unique = () => randomBytes(4).toString('hex');

/** Loads a fixture through the same code as `cli seed` (validated by the Fixture schema). */
export async function seed(db: TableContext, fixture: v.InferInput<typeof FixtureSchema>): Promise<void> {
  const settings = { db, cipher: localProfileCipher(localDeployment().dataDir), models: parseModelCatalog({}) };
  await seedFixture({ db, settings }, v.parse(FixtureSchema, fixture) as Fixture, new Date());
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
