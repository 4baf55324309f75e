import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stopLeftChildren } from '../../infra/local/process-guard';

/**
 * The process guard of `npm start`: a child survives neither its parent's SIGKILL (the
 * watchdog stops it) nor, should the watchdog die too, the next start on the same data
 * directory, which stops the listed processes whose command line still matches, and only those.
 */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

async function within(ms: number, condition: () => boolean): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

describe('process guard', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'process-guard-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stops a guarded child once its parent is killed with SIGKILL (the watchdog)', async () => {
    // A parent that guards a long-lived child (its command line names the data directory), prints the child's pid, then waits.
    const script = `
      const { spawn } = require('node:child_process');
      const { guardChild } = require(${JSON.stringify(path.resolve(__dirname, '../../infra/local/process-guard.ts'))});
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)', ${JSON.stringify(dir)}], { stdio: 'ignore' });
      guardChild(${JSON.stringify(dir)}, child, ${JSON.stringify(dir)});
      console.log(child.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--import', 'tsx', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const childPid = await new Promise<number>((resolve) => parent.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim()))));
    expect(alive(childPid)).toBe(true);
    expect(JSON.parse(readFileSync(path.join(dir, 'children.json'), 'utf8'))).toEqual([{ pid: childPid, marker: dir }]);
    parent.kill('SIGKILL');
    await exited(parent);
    expect(await within(5000, () => !alive(childPid))).toBe(true);
  });

  it('stops, at the next start, the listed processes still running with their marker, and nothing else', async () => {
    const left = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)', dir], { stdio: 'ignore' });
    const unrelated = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)', 'something-else'], { stdio: 'ignore' });
    try {
      // The unrelated process is listed too, as a reused pid would be: its command line lacks the marker.
      writeFileSync(
        path.join(dir, 'children.json'),
        JSON.stringify([
          { pid: left.pid, marker: dir },
          { pid: unrelated.pid, marker: dir },
        ]),
      );
      expect(await stopLeftChildren(dir)).toEqual([left.pid]);
      await exited(left);
      expect(alive(unrelated.pid!)).toBe(true);
      expect(JSON.parse(readFileSync(path.join(dir, 'children.json'), 'utf8'))).toEqual([]);
      expect(await stopLeftChildren(dir)).toEqual([]);
    } finally {
      left.kill('SIGKILL');
      unrelated.kill('SIGKILL');
    }
  });
});
