import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DecryptCommand,
  GenerateDataKeyCommand,
  InvalidCiphertextException,
  KMS,
  KMSClient,
  KMSServiceException,
} from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import {
  createProfileCipher,
  kmsKeyring,
  ProfileCiphertextMismatchError,
  rawAesKeyring,
  type ProfileOwner,
} from '../../shared/crypto/profile-cipher';
import { PROFILE_MAX_CHARACTERS } from '../../shared/schemas/settings';

const REGION = 'eu-west-1';
const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const ALICE: ProfileOwner = { orgId: 'org_acme', userId: 'usr_alice' };
const BOB_SAME_ORG: ProfileOwner = { orgId: 'org_acme', userId: 'usr_bob' };
const ALICE_OTHER_ORG: ProfileOwner = { orgId: 'org_globex', userId: 'usr_alice' };

/** An encryption context as a string that ignores key order (the SDK sorts the stored context). */
const canonical = (context: Record<string, string>) => JSON.stringify(Object.entries(context).sort(([a], [b]) => a.localeCompare(b)));
const contextOf = (owner: ProfileOwner) => ({ purpose: 'member-profile', org_id: owner.orgId, user_id: owner.userId });

/** `length` characters (code points, as the API counts them) of markdown: headings, lists, paragraphs, accents, emoji. */
function markdownProfile(length: number): string {
  const words = [
    'voice',
    'meeting',
    'notes',
    'prefers',
    'concise',
    'summaries',
    'déjà',
    'vu',
    'Müller',
    'café',
    'project',
    'timeline',
    'customer',
    'follow-up',
    '日本語',
    'review',
    'draft',
    'quarterly',
    'roadmap',
    '🎙️',
    '✅',
  ];
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0) >>> 8;
  const sentence = () => Array.from({ length: 6 + (next() % 10) }, () => words[next() % words.length]).join(' ') + '.';
  const parts: string[] = [];
  let size = 0;
  for (let section = 1; size < length; section += 1) {
    const block = [`## Section ${section}`, '', sentence() + ' ' + sentence(), '', `- ${sentence()}`, `- **${sentence()}**`, '', ''].join(
      '\n',
    );
    parts.push(block);
    size += [...block].length;
  }
  return [...parts.join('')].slice(0, length).join('');
}

/** KMS's AccessDeniedException (not modelled by client-kms: it comes as a generic service error). */
const accessDenied = (action: string) =>
  new KMSServiceException({
    name: 'AccessDeniedException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message: `User is not authorized to perform ${action}`,
  });

/** Flips one bit of a copy of `bytes` at `index` (negative: from the end). */
function flipped(bytes: Uint8Array, index: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[index < 0 ? copy.length + index : index] ^= 0x01;
  return copy;
}

describe('profile cipher, KMS keyring (KMS mocked)', () => {
  // mockClient(KMSClient) patches KMSClient.prototype.send, which the aggregated `KMS` class
  // (what the keyring calls: kms.generateDataKey(), kms.decrypt()) inherits.
  const kms = mockClient(KMSClient);
  /** What the mocked KMS issued: handle (the CiphertextBlob) -> data key and its encryption context. */
  let issued: Map<string, { dataKey: Buffer; context: Record<string, string> }>;

  beforeEach(() => {
    kms.reset();
    issued = new Map();
    kms.on(GenerateDataKeyCommand).callsFake((input) => {
      const dataKey = randomBytes(input.NumberOfBytes ?? 32);
      const blob = Buffer.concat([Buffer.from('mock-kms-blob:'), randomBytes(16)]);
      issued.set(blob.toString('hex'), { dataKey, context: { ...input.EncryptionContext } });
      // Fresh copies: the Encryption SDK zeroes the Plaintext it is given.
      return { KeyId: input.KeyId, Plaintext: Uint8Array.from(dataKey), CiphertextBlob: Uint8Array.from(blob) };
    });
    kms.on(DecryptCommand).callsFake((input) => {
      const entry = issued.get(Buffer.from(input.CiphertextBlob).toString('hex'));
      // Like KMS: the blob must be one it issued, under the same encryption context.
      if (!entry || canonical(entry.context) !== canonical(input.EncryptionContext ?? {})) {
        throw new InvalidCiphertextException({ message: 'mock: invalid ciphertext', $metadata: {} });
      }
      return { KeyId: KEY_ARN, Plaintext: Uint8Array.from(entry.dataKey) };
    });
  });

  afterAll(() => kms.restore());

  const cipher = () => createProfileCipher(kmsKeyring(KEY_ARN, REGION, new KMS({ region: REGION })));

  it('round-trips plain text, unicode and emoji, and a 100,000-character markdown profile', async () => {
    const c = cipher();
    const profiles = [
      'Prefers short summaries.',
      'Zoë Ångström — 日本語のメモ, עברית, العربية 🎙️👩🏽‍💻🇫🇷 ✅ and a lone 𝄞',
      '',
      markdownProfile(PROFILE_MAX_CHARACTERS),
    ];
    expect([...profiles[3]]).toHaveLength(100_000);
    for (const profile of profiles) {
      const ciphertext = await c.encrypt(profile, ALICE);
      expect(ciphertext).toBeInstanceOf(Uint8Array);
      await expect(c.decrypt(ciphertext, ALICE)).resolves.toBe(profile);
    }
  });

  it('also works with the KMS client kmsKeyring builds itself', async () => {
    const c = createProfileCipher(kmsKeyring(KEY_ARN, REGION));
    const ciphertext = await c.encrypt('default client', ALICE);
    await expect(c.decrypt(ciphertext, ALICE)).resolves.toBe('default client');
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
  });

  it('stores no plaintext, and deflates before encrypting', async () => {
    const profile = markdownProfile(100_000);
    const ciphertext = await cipher().encrypt(profile, ALICE);
    const stored = Buffer.from(ciphertext);
    for (const needle of ['## Section 1', 'quarterly', 'Müller', '日本語']) {
      expect(profile.includes(needle)).toBe(true);
      expect(stored.includes(needle)).toBe(false);
    }
    // Random-looking bytes compress to nothing, so a small ciphertext means the plaintext was deflated.
    expect(ciphertext.length).toBeLessThan(Buffer.byteLength(profile, 'utf8') / 3);
  });

  it('calls GenerateDataKey once per encrypt, for the configured key and the member context', async () => {
    const c = cipher();
    await c.encrypt('one', ALICE);
    await c.encrypt('two', BOB_SAME_ORG);
    const calls = kms.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(2);
    expect(calls[0].args[0].input).toMatchObject({ KeyId: KEY_ARN, NumberOfBytes: 32 });
    expect(calls[0].args[0].input.EncryptionContext).toStrictEqual(contextOf(ALICE));
    expect(calls[1].args[0].input.KeyId).toBe(KEY_ARN);
    expect(calls[1].args[0].input.EncryptionContext).toStrictEqual(contextOf(BOB_SAME_ORG));
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });

  it('calls Decrypt once per decrypt, with the key, the stored blob and the same context', async () => {
    const c = cipher();
    const ciphertext = await c.encrypt('hello', ALICE);
    const blob = kms.commandCalls(GenerateDataKeyCommand)[0].returnValue;
    await c.decrypt(ciphertext, ALICE);
    await c.decrypt(ciphertext, ALICE);
    const calls = kms.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      const input = call.args[0].input;
      expect(input.KeyId).toBe(KEY_ARN);
      expect(input.EncryptionContext).toStrictEqual(contextOf(ALICE));
      expect(Buffer.from(input.CiphertextBlob!)).toEqual(Buffer.from((await blob).CiphertextBlob!));
    }
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
  });

  it("refuses another member's ciphertext with ProfileCiphertextMismatchError", async () => {
    const c = cipher();
    const ciphertext = await c.encrypt('Alice only', ALICE);
    await expect(c.decrypt(ciphertext, BOB_SAME_ORG)).rejects.toBeInstanceOf(ProfileCiphertextMismatchError);
    await expect(c.decrypt(ciphertext, ALICE_OTHER_ORG)).rejects.toBeInstanceOf(ProfileCiphertextMismatchError);
    const error = await c.decrypt(ciphertext, BOB_SAME_ORG).catch((e: unknown) => e);
    expect(String((error as Error).message)).not.toContain('Alice only');
    // The rightful owner still reads it: the refusal is about the owner, not a broken ciphertext.
    await expect(c.decrypt(ciphertext, ALICE)).resolves.toBe('Alice only');
  });

  it('rejects a ciphertext whose body was tampered with', async () => {
    const c = cipher();
    const ciphertext = await c.encrypt(markdownProfile(10_000), ALICE);
    // The last 16 bytes are the final frame's GCM tag; the byte before them is encrypted content.
    await expect(c.decrypt(flipped(ciphertext, -17), ALICE)).rejects.toThrow(/authenticate/);
    await expect(c.decrypt(flipped(ciphertext, -1), ALICE)).rejects.toThrow(/authenticate/);
    await expect(c.decrypt(ciphertext.subarray(0, ciphertext.length - 40), ALICE)).rejects.toThrow();
    await expect(c.decrypt(ciphertext, ALICE)).resolves.toBe(markdownProfile(10_000));
  });

  it('propagates a KMS error as a rejection', async () => {
    const c = cipher();
    const ciphertext = await c.encrypt('hello', ALICE);
    kms.on(DecryptCommand).rejects(accessDenied('kms:Decrypt'));
    // The keyring wraps a Decrypt failure in its own error, whose message carries the KMS error.
    await expect(c.decrypt(ciphertext, ALICE)).rejects.toThrow(/AccessDeniedException: User is not authorized to perform kms:Decrypt/);
    kms.on(GenerateDataKeyCommand).rejects(accessDenied('kms:GenerateDataKey'));
    await expect(c.encrypt('hello', ALICE)).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: 'User is not authorized to perform kms:GenerateDataKey',
    });
  });

  it('encrypts the same text differently each time (fresh data key and IV)', async () => {
    const c = cipher();
    const first = await c.encrypt('same text', ALICE);
    const second = await c.encrypt('same text', ALICE);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    // Message format v2: version (1 byte), suite id (2), then the 32-byte message id that salts the key derivation.
    expect(Buffer.from(first.subarray(3, 35)).equals(Buffer.from(second.subarray(3, 35)))).toBe(false);
    const keys = await Promise.all(kms.commandCalls(GenerateDataKeyCommand).map((call) => call.returnValue));
    expect(keys).toHaveLength(2);
    expect(Buffer.from(keys[0].CiphertextBlob!).equals(Buffer.from(keys[1].CiphertextBlob!))).toBe(false);
    await expect(c.decrypt(first, ALICE)).resolves.toBe('same text');
    await expect(c.decrypt(second, ALICE)).resolves.toBe('same text');
  });
});

describe('profile cipher, raw AES keyring', () => {
  it('round-trips a profile and binds it to its owner', async () => {
    const c = createProfileCipher(rawAesKeyring(randomBytes(32)));
    const profile = 'Zoë 🎙️ ' + markdownProfile(5_000);
    const ciphertext = await c.encrypt(profile, ALICE);
    await expect(c.decrypt(ciphertext, ALICE)).resolves.toBe(profile);
    await expect(c.decrypt(ciphertext, BOB_SAME_ORG)).rejects.toBeInstanceOf(ProfileCiphertextMismatchError);
  });

  it('does not decrypt under another key', async () => {
    const ciphertext = await createProfileCipher(rawAesKeyring(randomBytes(32))).encrypt('secret', ALICE);
    const other = createProfileCipher(rawAesKeyring(randomBytes(32)));
    // The keyring cannot unwrap the data key (its GCM tag fails), so no key is ever set.
    await expect(other.decrypt(ciphertext, ALICE)).rejects.toThrow(/unencryptedDataKey has not been set/);
  });

  it('rejects a ciphertext whose stored encryption context was edited', async () => {
    const c = createProfileCipher(rawAesKeyring(randomBytes(32)));
    const ciphertext = Buffer.from(await c.encrypt('secret', ALICE));
    const at = ciphertext.indexOf('usr_alice');
    expect(at).toBeGreaterThan(0);
    // Rewrite the owner in the header (same length, so the message still parses) and read it as that owner.
    const edited = Buffer.from(ciphertext);
    edited.write('usr_alicx', at);
    await expect(c.decrypt(edited, { orgId: 'org_acme', userId: 'usr_alicx' })).rejects.toThrow();
    await expect(c.decrypt(ciphertext, ALICE)).resolves.toBe('secret');
  });
});

describe('the Encryption SDK and the KMS client load with the first encrypt or decrypt, not before', () => {
  const keyDir = mkdtempSync(path.join(os.tmpdir(), 'voice-org-cipher-'));
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
    jest.dontMock('@aws-crypto/client-node');
    jest.dontMock('@aws-sdk/client-kms');
    rmSync(keyDir, { recursive: true, force: true });
  });

  it("a function's ciphers, made at its first request (a settings read without a profile stops there), load neither; the first encrypt loads the SDK", async () => {
    const loaded: string[] = [];
    jest.doMock('@aws-crypto/client-node', () => (loaded.push('@aws-crypto/client-node'), jest.requireActual('@aws-crypto/client-node')));
    jest.doMock('@aws-sdk/client-kms', () => (loaded.push('@aws-sdk/client-kms'), jest.requireActual('@aws-sdk/client-kms')));
    const keyFile = path.join(keyDir, 'profile-key.bin');
    writeFileSync(keyFile, randomBytes(32));
    process.env = { ...saved, TABLE_NAME: 'cipher-test', PROFILE_LOCAL_KEY_FILE: keyFile };
    delete process.env.PROFILE_KMS_KEY_ARN;
    let modules!: {
      configured: typeof import('../../shared/crypto/configured-cipher');
      profiles: typeof import('../../shared/crypto/profile-cipher');
    };
    jest.isolateModules(() => {
      modules = { configured: require('../../shared/crypto/configured-cipher'), profiles: require('../../shared/crypto/profile-cipher') };
    });
    const cipher = modules.configured.profileCipher();
    modules.configured.webhookSecretCipher();
    modules.profiles.createProfileCipher(modules.profiles.kmsKeyring(KEY_ARN, REGION));
    expect(loaded).toEqual([]);

    const ciphertext = await cipher.encrypt('loaded now', ALICE);
    await expect(cipher.decrypt(ciphertext, ALICE)).resolves.toBe('loaded now');
    // The local key needs no KMS client: only the SDK was loaded, once.
    expect(loaded).toEqual(['@aws-crypto/client-node']);
  });
});
