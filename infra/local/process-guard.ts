import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Child processes of `npm start` (DynamoDB Local's java) must not outlive it, even when it is
 * killed with `kill -9`, which no handler of its own sees. Two guards:
 * - a watchdog process, spawned with a pipe to its standard input: when this process dies, the
 *   pipe closes and the watchdog stops the children it was told about, then exits;
 * - a file in the data directory listing those children (pid and a piece of their command line):
 *   should the watchdog have been killed too, the next start on that directory stops the ones
 *   still running whose command line still matches, and only those.
 * (The speech engine is a worker thread, and ffmpeg dies of SIGPIPE once its reader is gone.)
 */

const CHILDREN_FILE = 'children.json';

interface Child {
  pid: number;
  /** Text the process's command line contains (the data directory's path): a reused pid never matches. */
  marker: string;
}

/** The watchdog: reads "pid marker" lines; once its input closes, stops each one still running whose command line holds the marker. */
const WATCHDOG = `
const fs = require('node:fs');
const children = [];
let input = '';
process.stdin.on('data', (chunk) => {
  input += chunk;
  const lines = input.split('\\n');
  input = lines.pop();
  for (const line of lines) if (line) children.push(JSON.parse(line));
});
const matches = (child) => { try { return fs.readFileSync('/proc/' + child.pid + '/cmdline', 'utf8').includes(child.marker); } catch { return false; } };
process.stdin.on('end', () => {
  const left = children.filter(matches);
  for (const child of left) try { process.kill(child.pid, 'SIGTERM'); } catch {}
  setTimeout(() => { for (const child of left.filter(matches)) try { process.kill(child.pid, 'SIGKILL'); } catch {} process.exit(0); }, 3000).unref();
});
`;

let watchdog: ChildProcess | undefined;

function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return undefined;
  }
}

function readChildren(dataDir: string): Child[] {
  const file = path.join(dataDir, CHILDREN_FILE);
  if (!existsSync(file)) return [];
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Child[];
  } catch {
    return [];
  }
}

/** Puts a child of this deployment under both guards. */
export function guardChild(dataDir: string, child: ChildProcess, marker: string): void {
  if (child.pid === undefined) return;
  const entry: Child = { pid: child.pid, marker };
  if (!watchdog) {
    watchdog = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    watchdog.unref();
    (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  }
  watchdog.stdin!.write(`${JSON.stringify(entry)}\n`);
  writeFileSync(path.join(dataDir, CHILDREN_FILE), JSON.stringify([...readChildren(dataDir), entry]));
}

/**
 * Stops what an earlier run on this data directory left running (it was killed along with its
 * watchdog): each listed process whose command line still holds its marker. Answers the pids stopped.
 */
export async function stopLeftChildren(dataDir: string): Promise<number[]> {
  const left = readChildren(dataDir).filter((child) => commandLineOf(child.pid)?.includes(child.marker));
  for (const child of left) process.kill(child.pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (left.some((child) => commandLineOf(child.pid)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const child of left.filter((candidate) => commandLineOf(candidate.pid)?.includes(candidate.marker)))
    process.kill(child.pid, 'SIGKILL');
  writeFileSync(path.join(dataDir, CHILDREN_FILE), '[]');
  if (left.length)
    console.log(`Stopped what an earlier run on this data directory left running: pid ${left.map((child) => child.pid).join(', ')}.`);
  return left.map((child) => child.pid);
}
