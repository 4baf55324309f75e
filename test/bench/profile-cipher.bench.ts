/**
 * Benchmark of the member profile cipher (shared/crypto/profile-cipher.ts): what encrypting
 * and decrypting one profile costs, and how large the stored ciphertext is.
 *
 *   npx tsx test/bench/profile-cipher.bench.ts
 *
 * Profiles: realistic markdown of 1 KB, 10 KB and 100,000 characters (the API's maximum,
 * counted in code points), 100,000 random emoji (a worst case for the text a person would
 * write) and 100,000 random supplementary-plane code points (the worst case for size: the
 * least compressible text the API accepts).
 *
 * Two keyrings:
 * - raw AES (the local keyring): all the work is local, so the times are the whole cost;
 * - KMS, against a mocked KMS client that answers at once: the times are the Encryption SDK's
 *   own overhead only. In AWS each encrypt adds one GenerateDataKey round trip and each
 *   decrypt one Decrypt round trip (typically a few ms each, inside a region).
 *
 * Each timing is one `encrypt` or `decrypt` call, measured RUNS times after WARM_UPS calls.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { deflateRawSync } from 'node:zlib';
import { DecryptCommand, GenerateDataKeyCommand, KMS, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { createProfileCipher, kmsKeyring, rawAesKeyring, type ProfileCipher, type ProfileOwner } from '../../shared/crypto/profile-cipher';
import { percentile, prng } from './support/bench-harness';

const WARM_UPS = 20;
const RUNS = 200;
const REGION = 'eu-west-1';
const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const OWNER: ProfileOwner = { orgId: 'org_01JBENCHORGANIZATION00', userId: 'usr_01JBENCHMEMBER0000000' };
/** DynamoDB's item size limit: a profile item holds the ciphertext plus a few small attributes. */
const DYNAMODB_ITEM_LIMIT = 400 * 1024;

// ---------------------------------------------------------------------------------------
// Profiles

const VOCABULARY = (
  'I lead the customer success team for our EMEA accounts and spend most days on calls with clients, ' +
  'partners and the product group. Please keep summaries short: decisions first, then owners and due dates, ' +
  'then open questions. I prefer bullet points over prose, British spelling, and times in Europe/Paris. ' +
  'When a meeting mentions pricing, renewals or contract terms, flag it clearly and link the account record. ' +
  'Action items should name one owner each; if nobody was assigned, say so instead of guessing. ' +
  'Recurring meetings: weekly pipeline review on Monday, quarterly business reviews, onboarding sessions, ' +
  'escalations with support and engineering, and one-to-ones with my reports Zoë, Łukasz, Müller and Siobhán. ' +
  'Vocabulary: ARR, churn, NPS, SLA, QBR, RFP, SSO, SCIM, sandbox, rollout, playbook, handover, backlog. ' +
  'Do not transcribe small talk. Translate short French or German passages into English, keep quotes verbatim, ' +
  'and mark anything uncertain with a question mark rather than inventing details about the roadmap or budget.'
).split(/\s+/);
const HEADINGS = ['About me', 'How I work', 'Summaries', 'Action items', 'Accounts', 'Meetings', 'Vocabulary', 'Do not', 'Notes'];
const EXTRAS = ['✅', '📌', '🎙️', '→', '€12,400', '2025-03-14', '**important**', '`CRM-4821`', '[account](https://crm.example.com/a/4821)'];

/** `length` characters (code points) of markdown that reads like a real profile (the same text for the same seed). */
function markdownProfile(length: number, seed = 42): string {
  const pick = prng(seed);
  const sentence = () => {
    const words = Array.from({ length: 8 + pick(14) }, () => VOCABULARY[pick(VOCABULARY.length)]);
    if (pick(3) === 0) words.splice(pick(words.length), 0, EXTRAS[pick(EXTRAS.length)]);
    const text = words.join(' ').replace(/[.,:;]+$/, '');
    return text[0].toUpperCase() + text.slice(1) + '.';
  };
  const blocks: string[] = ['# Profile\n'];
  let size = blocks[0].length;
  while (size < length) {
    const lines = [
      `## ${HEADINGS[pick(HEADINGS.length)]} ${1 + pick(20)}`,
      '',
      Array.from({ length: 2 + pick(3) }, sentence).join(' '),
      '',
    ];
    for (let i = 0, n = 2 + pick(4); i < n; i += 1) lines.push(`- ${sentence()}`);
    const block = lines.join('\n') + '\n\n';
    blocks.push(block);
    size += [...block].length;
  }
  return [...blocks.join('')].slice(0, length).join('');
}

/** `count` code points drawn at random from `ranges` (inclusive [first, last] pairs). */
function randomCodePoints(count: number, ranges: Array<[number, number]>, seed: number): string {
  const pick = prng(seed);
  const total = ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
  const points = Array.from({ length: count }, () => {
    let index = pick(total);
    for (const [first, last] of ranges) {
      if (index <= last - first) return first + index;
      index -= last - first + 1;
    }
    throw new Error('unreachable');
  });
  let text = '';
  for (let i = 0; i < points.length; i += 10_000) text += String.fromCodePoint(...points.slice(i, i + 10_000));
  return text;
}

const EMOJI_BLOCKS: Array<[number, number]> = [
  [0x1f300, 0x1f5ff], // Miscellaneous Symbols and Pictographs
  [0x1f600, 0x1f64f], // Emoticons
  [0x1f680, 0x1f6ff], // Transport and Map Symbols
  [0x1f900, 0x1f9ff], // Supplemental Symbols and Pictographs
];

const PROFILES: Array<{ name: string; text: string }> = [
  { name: 'markdown 1 KB', text: markdownProfile(1_024) },
  { name: 'markdown 10 KB', text: markdownProfile(10_240) },
  { name: 'markdown 100,000 chars', text: markdownProfile(100_000) },
  { name: '100,000 random emoji', text: randomCodePoints(100_000, EMOJI_BLOCKS, 7) },
  { name: '100,000 random astral code points', text: randomCodePoints(100_000, [[0x10000, 0x10ffff]], 11) },
];

// ---------------------------------------------------------------------------------------
// Measurement

interface Row {
  keyring: string;
  profile: string;
  chars: number;
  utf8Bytes: number;
  deflatedBytes: number;
  ciphertextBytes: number;
  encrypt: Stats;
  decrypt: Stats;
}

interface Stats {
  median: number;
  p95: number;
}

/** Nearest-rank median and 95th percentile. */
function stats(samples: number[]): Stats {
  return { median: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** Runs the whole path (both ciphers share the SDK code) until the JIT has settled. */
async function warmUp(cipher: ProfileCipher): Promise<void> {
  const text = PROFILES[1].text;
  for (let i = 0; i < 100; i += 1) await cipher.decrypt(await cipher.encrypt(text, OWNER), OWNER);
}

async function measure(keyring: string, cipher: ProfileCipher, profile: { name: string; text: string }): Promise<Row> {
  const { name, text } = profile;
  const ciphertext = await cipher.encrypt(text, OWNER);
  if ((await cipher.decrypt(ciphertext, OWNER)) !== text) throw new Error(`${keyring} / ${name}: round trip changed the text`);

  for (let i = 0; i < WARM_UPS; i += 1) await cipher.decrypt(await cipher.encrypt(text, OWNER), OWNER);
  const encryptMs: number[] = [];
  const decryptMs: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    let start = performance.now();
    const stored = await cipher.encrypt(text, OWNER);
    encryptMs.push(performance.now() - start);
    start = performance.now();
    await cipher.decrypt(stored, OWNER);
    decryptMs.push(performance.now() - start);
  }

  const utf8 = Buffer.from(text, 'utf8');
  return {
    keyring,
    profile: name,
    chars: [...text].length,
    utf8Bytes: utf8.length,
    deflatedBytes: deflateRawSync(utf8).length,
    ciphertextBytes: ciphertext.length,
    encrypt: stats(encryptMs),
    decrypt: stats(decryptMs),
  };
}

/** A KMS that answers at once. The data key travels inside the fake CiphertextBlob. */
function instantKms(): { client: KMS; calls: () => { generateDataKey: number; decrypt: number }; restore: () => void } {
  const kms = mockClient(KMSClient);
  const prefix = Buffer.from('bench-kms:');
  kms.on(GenerateDataKeyCommand).callsFake((input) => {
    const dataKey = randomBytes(input.NumberOfBytes ?? 32);
    // Fresh buffers on every call: the Encryption SDK zeroes the Plaintext it receives.
    return { KeyId: KEY_ARN, Plaintext: Uint8Array.from(dataKey), CiphertextBlob: Uint8Array.from(Buffer.concat([prefix, dataKey])) };
  });
  kms.on(DecryptCommand).callsFake((input) => ({
    KeyId: KEY_ARN,
    Plaintext: Uint8Array.from(Buffer.from(input.CiphertextBlob).subarray(prefix.length)),
  }));
  return {
    client: new KMS({ region: REGION }),
    calls: () => ({ generateDataKey: kms.commandCalls(GenerateDataKeyCommand).length, decrypt: kms.commandCalls(DecryptCommand).length }),
    restore: () => kms.restore(),
  };
}

// ---------------------------------------------------------------------------------------
// Report

function table(rows: Row[]): string {
  const ms = (value: number) => value.toFixed(3);
  const int = (value: number) => value.toLocaleString('en-US');
  const header = [
    'keyring',
    'profile',
    'chars',
    'UTF-8 B',
    'deflated B',
    'stored B',
    'stored/UTF-8',
    'enc median ms',
    'enc p95 ms',
    'dec median ms',
    'dec p95 ms',
  ];
  const body = rows.map((row) => [
    row.keyring,
    row.profile,
    int(row.chars),
    int(row.utf8Bytes),
    int(row.deflatedBytes),
    int(row.ciphertextBytes),
    `${((100 * row.ciphertextBytes) / row.utf8Bytes).toFixed(1)} %`,
    ms(row.encrypt.median),
    ms(row.encrypt.p95),
    ms(row.decrypt.median),
    ms(row.decrypt.p95),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column].length)));
  const line = (cells: string[]) =>
    '| ' + cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join(' | ') + ' |';
  const rule =
    '|' + widths.map((width, column) => (column < 2 ? ':' + '-'.repeat(width + 1) : '-'.repeat(width + 1) + ':')).join('|') + '|';
  return [line(header), rule, ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  console.log(
    `Profile cipher bench: ${RUNS} runs per cell after ${WARM_UPS} warm-ups, Node ${process.version}, ${process.platform}/${process.arch}\n`,
  );
  const rows: Row[] = [];

  const local = createProfileCipher(rawAesKeyring(randomBytes(32)));
  await warmUp(local);
  for (const profile of PROFILES) rows.push(await measure('raw AES', local, profile));

  const kms = instantKms();
  let kmsCalls: ReturnType<typeof kms.calls>;
  try {
    const cipher = createProfileCipher(kmsKeyring(KEY_ARN, REGION, kms.client));
    await warmUp(cipher);
    for (const profile of PROFILES) rows.push(await measure('KMS (mocked)', cipher, profile));
    kmsCalls = kms.calls();
  } finally {
    kms.restore();
  }
  const roundTrips = 100 + (RUNS + WARM_UPS + 1) * PROFILES.length;

  console.log(`${table(rows)}\n`);
  console.log('stored B: the ciphertext the API stores (Encryption SDK message: header with the encryption context and the');
  console.log('encrypted data key, 4 KiB frames with IV and tag each), after deflating the UTF-8 text (deflated B).');
  console.log('KMS (mocked): KMS answers at once, so these times are the Encryption SDK overhead only; in AWS each encrypt');
  console.log('adds one GenerateDataKey round trip and each decrypt one Decrypt round trip (plus KMS request pricing).');
  console.log(
    `Mocked KMS calls: ${kmsCalls.generateDataKey} GenerateDataKey and ${kmsCalls.decrypt} Decrypt for ` +
      `${roundTrips} encrypts and ${roundTrips} decrypts: one KMS call per operation.`,
  );
  const largest = Math.max(...rows.map((row) => row.ciphertextBytes));
  console.log(
    `Largest stored ciphertext: ${largest.toLocaleString('en-US')} B (${((100 * largest) / DYNAMODB_ITEM_LIMIT).toFixed(0)} % of DynamoDB's 400 KB item limit).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
