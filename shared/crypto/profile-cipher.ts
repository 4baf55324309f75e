import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { KMS } from '@aws-sdk/client-kms';
import { traced } from '../observability/tracer';
import { encryptionSdk, lazyKeyring, type LazyKeyring } from './encryption-sdk';

/** The key a cipher wraps its data keys with; built, with the Encryption SDK, on the first encrypt or decrypt. */
export type CipherKeyring = LazyKeyring;

/** Whose profile a ciphertext is: bound into it as the encryption context. */
export interface ProfileOwner {
  orgId: string;
  userId: string;
}

/** Encrypts and decrypts member profiles under the envelope scheme of the AWS Encryption SDK. */
export interface ProfileCipher {
  encrypt(plaintext: string, owner: ProfileOwner): Promise<Uint8Array>;
  decrypt(ciphertext: Uint8Array, owner: ProfileOwner): Promise<string>;
}

/** Raised when a ciphertext does not belong to the profile it is read as. */
export class ProfileCiphertextMismatchError extends Error {
  constructor() {
    super('The stored profile ciphertext belongs to another member.');
  }
}

// The suite (encryptionSdk().suite): key commitment without ECDSA signing, about 5x cheaper per
// profile than the default suite; no signature is needed where the writer and the reader are the same service.
/** A stored profile never exceeds DynamoDB's item size, nor inflates past 100,000 four-byte characters. */
const MAX_CIPHERTEXT_BYTES = 400 * 1024;
const MAX_PLAINTEXT_BYTES = 100_000 * 4;

function encryptionContext(owner: ProfileOwner): Record<string, string> {
  return { purpose: 'member-profile', org_id: owner.orgId, user_id: owner.userId };
}

/**
 * A profile cipher over a keyring. The plaintext is compressed first (markdown shrinks
 * well, and it keeps a 100,000-character profile far below DynamoDB's item limit), then
 * encrypted with a fresh data key; the encryption context binds org and user, and decrypt
 * refuses a ciphertext whose context names another member.
 */
export function createProfileCipher(keyring: CipherKeyring): ProfileCipher {
  return {
    async encrypt(plaintext, owner) {
      const [{ encrypt, suite }, keys] = await Promise.all([encryptionSdk(), keyring.load()]);
      const { result } = await encrypt(keys, deflateRawSync(Buffer.from(plaintext, 'utf8')), {
        encryptionContext: encryptionContext(owner),
        suiteId: suite,
      });
      return new Uint8Array(result);
    },
    async decrypt(ciphertext, owner) {
      if (ciphertext.length > MAX_CIPHERTEXT_BYTES) throw new Error('Stored profile ciphertext is larger than any profile can be.');
      const [{ decrypt }, keys] = await Promise.all([encryptionSdk(), keyring.load()]);
      const { plaintext, messageHeader } = await decrypt(keys, ciphertext);
      const expected = encryptionContext(owner);
      for (const [name, value] of Object.entries(expected)) {
        if (messageHeader.encryptionContext[name] !== value) throw new ProfileCiphertextMismatchError();
      }
      return inflateRawSync(plaintext, { maxOutputLength: MAX_PLAINTEXT_BYTES }).toString('utf8');
    },
  };
}

/**
 * The keyring used in AWS: data keys generated and unwrapped by the stack's KMS key. The KMS
 * client (made here unless given) is, like the SDK, loaded on the first encrypt or decrypt.
 */
export function kmsKeyring(keyArn: string, region: string, kmsClient?: KMS): CipherKeyring {
  return lazyKeyring(async () => {
    const [{ sdk }, client] = await Promise.all([
      encryptionSdk(),
      kmsClient ?? import('@aws-sdk/client-kms').then(({ KMS }) => traced(new KMS({ region }))),
    ]);
    return new sdk.KmsKeyringNode({ generatorKeyId: keyArn, clientProvider: () => client });
  });
}

/** The keyring used locally: a 256-bit AES key kept under LOCAL_DATA_DIR. */
export function rawAesKeyring(key: Uint8Array): CipherKeyring {
  const unencryptedMasterKey = new Uint8Array(key); // copied now: the caller may reuse its buffer
  return lazyKeyring(async () => {
    const { sdk } = await encryptionSdk();
    return new sdk.RawAesKeyringNode({
      keyNamespace: 'voice-org-local',
      keyName: 'profile-key',
      unencryptedMasterKey,
      wrappingSuite: sdk.RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
    });
  });
}
