import { readFileSync } from 'node:fs';
import { config } from '../config';
import { createProfileCipher, kmsKeyring, rawAesKeyring, type ProfileCipher } from './profile-cipher';

let shared: ProfileCipher | undefined;

/**
 * The function's profile cipher, built once per module (cold start) from config: the KMS
 * keyring in AWS, the raw AES keyring of the local data directory under `npm start`.
 */
export function profileCipher(): ProfileCipher {
  if (!shared) {
    const { profileKey, region } = config();
    if (!profileKey) throw new Error('Invalid configuration: PROFILE_KMS_KEY_ARN or PROFILE_LOCAL_KEY_FILE is required');
    shared = createProfileCipher(
      profileKey.kind === 'kms' ? kmsKeyring(profileKey.keyArn, region) : rawAesKeyring(readFileSync(profileKey.file)),
    );
  }
  return shared;
}
