import { readFileSync } from 'node:fs';
import { config } from '../config';
import { createProfileCipher, kmsKeyring, rawAesKeyring, type CipherKeyring, type ProfileCipher } from './profile-cipher';
import { createWebhookSecretCipher, type WebhookSecretCipher } from './webhook-secret-cipher';

let keyring: CipherKeyring | undefined;
let profiles: ProfileCipher | undefined;
let secrets: WebhookSecretCipher | undefined;

/**
 * The stack's key as a keyring, made once per module (cold start) from config: the KMS
 * keyring in AWS, the raw AES keyring of the local data directory under `npm start`. Making
 * it loads nothing: the Encryption SDK and the KMS client come with the first encrypt or decrypt.
 */
function configuredKeyring(): CipherKeyring {
  if (!keyring) {
    const { profileKey, region } = config();
    if (!profileKey) throw new Error('Invalid configuration: PROFILE_KMS_KEY_ARN or PROFILE_LOCAL_KEY_FILE is required');
    keyring = profileKey.kind === 'kms' ? kmsKeyring(profileKey.keyArn, region) : rawAesKeyring(readFileSync(profileKey.file));
  }
  return keyring;
}

/** The function's profile cipher. */
export function profileCipher(): ProfileCipher {
  profiles ??= createProfileCipher(configuredKeyring());
  return profiles;
}

/** The function's webhook signing-secret cipher (same key, another encryption context). */
export function webhookSecretCipher(): WebhookSecretCipher {
  secrets ??= createWebhookSecretCipher(configuredKeyring());
  return secrets;
}
