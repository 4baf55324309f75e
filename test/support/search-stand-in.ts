import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import type { Emulator } from '../../infra/local/emulators';
import { startSearchEmulator } from '../../infra/local/search-emulator';

/**
 * A search stand-in of a test's own, answering as the deployment's vector collection does (no
 * client document ids, no _delete_by_query), on a fresh directory, with a client on it.
 */
export async function startSearchStandIn(name: string): Promise<{ emulator: Emulator; client: Client }> {
  const emulator = await startSearchEmulator({
    host: '127.0.0.1',
    dataDir: mkdtempSync(path.join(tmpdir(), `${name}-`)),
    serverlessVectorCollection: true,
  });
  return { emulator, client: new Client({ node: emulator.endpoint }) };
}
