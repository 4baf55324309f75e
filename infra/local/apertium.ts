import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Debian's Apertium, the offline engine behind the local Amazon Translate stand-in
 * (translate-emulator.ts): `apertium <mode>` translates its standard input. Its modes are named
 * by three-letter codes (`eng-spa`, `spa-eng`; a few packages use two letters, `en-gl`), so an
 * ISO 639-1 pair maps to the mode names it may have, and only the installed modes count
 * (`apertium -l`). Rule-based and shallow: good enough to show the pipeline works, not a model
 * of Amazon Translate's quality.
 */

/** The Debian packages of the default pair (English ↔ Spanish). */
export const LOCAL_TRANSLATION_PACKAGES = ['apertium', 'apertium-eng-spa'] as const;

/** ISO 639-1 → Apertium's three-letter codes of the languages its Debian pairs cover. */
const APERTIUM_CODES: Record<string, string> = {
  en: 'eng',
  es: 'spa',
  ca: 'cat',
  fr: 'fra',
  pt: 'por',
  gl: 'glg',
  it: 'ita',
  de: 'deu',
  nl: 'nld',
  ro: 'ron',
  sv: 'swe',
  da: 'dan',
  no: 'nob',
  is: 'isl',
  ru: 'rus',
  uk: 'ukr',
  pl: 'pol',
  cs: 'ces',
  sk: 'slk',
  sl: 'slv',
  hr: 'hbs',
  sr: 'hbs',
  bs: 'hbs',
  eu: 'eus',
  cy: 'cym',
  ga: 'gle',
  mt: 'mlt',
  kk: 'kaz',
  tr: 'tur',
  ar: 'ara',
  he: 'heb',
  id: 'ind',
  ms: 'msa',
};

const run = promisify(execFile);

let installedModes: Promise<Set<string>> | undefined;

/** The installed modes (`apertium -l`), read once; empty when Apertium is not installed. */
export function apertiumModes(): Promise<Set<string>> {
  installedModes ??= run('apertium', ['-l'], { timeout: 10_000 })
    .then(
      ({ stdout }) =>
        new Set(
          stdout
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        ),
    )
    .catch(() => new Set<string>());
  return installedModes;
}

/** The installed mode that translates `from` into `to` (Translate's codes; a variant such as `pt-PT` is its language), if any. */
export async function apertiumModeFor(from: string, to: string): Promise<string | undefined> {
  const language = (code: string) => code.split('-')[0].toLowerCase();
  const [source, target] = [language(from), language(to)];
  const modes = await apertiumModes();
  const candidates = [`${APERTIUM_CODES[source]}-${APERTIUM_CODES[target]}`, `${source}-${target}`];
  return candidates.find((mode) => modes.has(mode));
}

/** Whether local translation works here: Apertium with at least one pair installed (npm start's banner says so). */
export async function isLocalTranslationAvailable(): Promise<boolean> {
  return (await apertiumModes()).size > 0;
}

/**
 * Translates a text with an installed mode, keeping its lines (Apertium translates line by
 * line and keeps the breaks). `-u` leaves unknown words unmarked; the marks it still writes
 * before words it could not inflect (`#`, `@`) are removed. Lines lose the blank Apertium puts
 * at their start.
 */
export async function apertiumTranslate(mode: string, text: string): Promise<string> {
  // A file, not standard input: Node's pipes are sockets, which the apertium script's /dev/stdin cannot open.
  const dir = await mkdtemp(path.join(tmpdir(), 'voice-org-apertium-'));
  try {
    const input = path.join(dir, 'input.txt');
    await writeFile(input, text, 'utf8');
    const { stdout } = await run('apertium', ['-u', mode, input], { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    return stdout
      .replace(/\n$/, text.endsWith('\n') ? '\n' : '')
      .split('\n')
      .map((line) => line.replace(/(^|\s)[#@](?=\p{L})/gu, '$1').trim())
      .join('\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
