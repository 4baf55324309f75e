import { encryptionSdk } from './encryption-sdk';
import type { CipherKeyring } from './profile-cipher';

/** Whose signing secret a ciphertext is: bound into it as the encryption context (and the KMS grant's condition). */
export interface SecretOwner {
  orgId: string;
  webhookId: string;
}

/** Encrypts and decrypts webhook signing secrets under the envelope scheme of the AWS Encryption SDK. */
export interface WebhookSecretCipher {
  encrypt(secret: string, owner: SecretOwner): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, owner: SecretOwner): Promise<string>;
}

// The profiles' suite (encryptionSdk().suite): key commitment, no signature (the writer and the reader are this service).
/** A secret's ciphertext is a few hundred bytes; anything much larger was not written by this service. */
const MAX_CIPHERTEXT_BYTES = 16 * 1024;

function encryptionContext(owner: SecretOwner): Record<string, string> {
  return { purpose: 'webhook-secret', org_id: owner.orgId, webhook_id: owner.webhookId };
}

/**
 * A signing-secret cipher over a keyring (the stack's KMS key in AWS, the local key under
 * `npm start`). Each secret gets its own data key; the context binds organization and
 * endpoint, and decrypt refuses a ciphertext whose context names another endpoint.
 */
export function createWebhookSecretCipher(keyring: CipherKeyring): WebhookSecretCipher {
  return {
    async encrypt(secret, owner) {
      const [{ encrypt, suite }, keys] = await Promise.all([encryptionSdk(), keyring.load()]);
      const { result } = await encrypt(keys, Buffer.from(secret, 'utf8'), { encryptionContext: encryptionContext(owner), suiteId: suite });
      return new Uint8Array(result);
    },
    async decrypt(ciphertext, owner) {
      if (ciphertext.length > MAX_CIPHERTEXT_BYTES) throw new Error('Stored signing secret ciphertext is larger than any secret can be.');
      const [{ decrypt }, keys] = await Promise.all([encryptionSdk(), keyring.load()]);
      const { plaintext, messageHeader } = await decrypt(keys, ciphertext);
      for (const [name, value] of Object.entries(encryptionContext(owner))) {
        if (messageHeader.encryptionContext[name] !== value)
          throw new Error('The stored signing secret belongs to another webhook endpoint.');
      }
      return Buffer.from(plaintext).toString('utf8');
    },
  };
}
