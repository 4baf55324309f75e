import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createProfileCipher, rawAesKeyring, type ProfileCipher } from '../../shared/crypto/profile-cipher';
import { createWebhookSecretCipher, type WebhookSecretCipher } from '../../shared/crypto/webhook-secret-cipher';

/**
 * The local stand-in for the stack's KMS key: a random 256-bit AES key kept under the
 * data directory (created on first start), which wraps each profile's data key.
 */
export function ensureProfileKey(dataDir: string): string {
  const file = path.join(dataDir, 'profile-key.bin');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32), { mode: 0o600 });
  }
  return file;
}

/** The profile cipher of a local deployment (for the CLI and the demo seed). */
export function localProfileCipher(dataDir: string): ProfileCipher {
  return createProfileCipher(rawAesKeyring(readFileSync(ensureProfileKey(dataDir))));
}

/** The webhook signing-secret cipher of a local deployment (same local key; for the tests' and tools' seeding). */
export function localWebhookSecretCipher(dataDir: string): WebhookSecretCipher {
  return createWebhookSecretCipher(rawAesKeyring(readFileSync(ensureProfileKey(dataDir))));
}
