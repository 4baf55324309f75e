import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startLocalDeployment, stopLocalDeployment, type StartedDeployment } from '../support/local-deployment';

/**
 * `npm start` as a new user meets it: a fresh data directory gets the demo organization
 * and curl commands that work as printed; Ctrl-C and SIGTERM stop every process; a
 * restart keeps the data.
 */
const processesUsing = (dataDir: string) =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dataDir) && !line.includes('ps -eo'));

/** Runs the banner's export lines and one curl command in bash, as pasted into a terminal. */
function runPasted(banner: string, curlLine: string): Promise<string> {
  const exports = banner.split('\n').filter((line) => line.trim().startsWith('export '));
  const script = [...exports, curlLine.replace(/#.*$/, '')].join('\n');
  return new Promise((resolve, reject) =>
    execFile('bash', ['-c', script], { encoding: 'utf8' }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
}

describe('npm start', () => {
  let first: StartedDeployment;
  afterAll(async () => {
    if (first && first.child.exitCode === null) await stopLocalDeployment(first.child, 'SIGKILL');
    if (first) rmSync(first.dataDir, { recursive: true, force: true });
  });

  it('seeds the demo organization on a fresh directory and prints curl commands that work', async () => {
    first = await startLocalDeployment({ env: { LOCAL_SEED: 'demo', LOG_LEVEL: 'DEBUG' } });
    const banner = first.output();
    const curls = banner
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('curl '));
    expect(curls.length).toBeGreaterThanOrEqual(5);
    // The five reads side by side, then the rest: a pasted write (Create upload URL) would race the reads' counts.
    const reads = await Promise.all(curls.slice(0, 5).map((line) => runPasted(banner, line)));
    const results = [...reads, ...(await Promise.all(curls.slice(5).map((line) => runPasted(banner, line))))];
    const [health, orgList, ownerSearch, alias, personal] = results.map((text) => JSON.parse(text));
    expect(health).toEqual({ status: 'ok' });
    expect(orgList.success).toBe(true);
    expect(orgList.pagination.total).toBe(4);
    expect(orgList.data.map((m: { role: string }) => m.role).sort()).toEqual(['admin', 'member', 'owner', 'viewer']);
    expect(ownerSearch.pagination).toMatchObject({ page: 2, limit: 2, total: 4 });
    expect(alias).toEqual(orgList);
    expect(personal.error).toBe('USER_KEY_NOT_ALLOWED');
    // Every other command works as printed (a POST without its content type would be 415).
    for (const text of results.slice(5)) expect(JSON.parse(text)).not.toMatchObject({ success: false });

    // The functions log structured lines with the correlation id, and never a credential.
    const logs = first.output().slice(banner.length);
    expect(logs).toContain('"correlation_id"');
    expect(logs).toContain('credential accepted');
    for (const secret of banner.matchAll(/export \w+=(\S+)/g)) expect(logs).not.toContain(secret[1]);
  });

  it('stops on Ctrl-C (SIGINT) with no process left behind, and forgets its runtime file', async () => {
    expect(processesUsing(first.dataDir).some((line) => line.includes('java'))).toBe(true);
    expect(await stopLocalDeployment(first.child, 'SIGINT')).toBe(0);
    expect(processesUsing(first.dataDir)).toEqual([]);
    expect(existsSync(path.join(first.dataDir, 'runtime.json'))).toBe(false);
  });

  it('a restart keeps the data and does not seed again; SIGTERM stops it cleanly', async () => {
    const restarted = await startLocalDeployment({ dataDir: first.dataDir, env: { LOCAL_SEED: 'demo' } });
    try {
      const banner = restarted.output();
      const orgKey = /export ORG_KEY=(\S+)/.exec(banner)?.[1];
      expect(orgKey).toBe(/export ORG_KEY=(\S+)/.exec(first.output())?.[1]);
      const res = await fetch(`${restarted.runtime.apiUrl}/api/v1/organization/org_demo/users`, {
        headers: { authorization: `Bearer ${orgKey}` },
      });
      const body = (await res.json()) as { pagination: { total: number } };
      expect(body.pagination.total).toBe(4);
    } finally {
      expect(await stopLocalDeployment(restarted.child, 'SIGTERM')).toBe(0);
    }
    expect(processesUsing(first.dataDir)).toEqual([]);
  });
});
