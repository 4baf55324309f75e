/**
 * The AWS Encryption SDK and the KMS client, loaded on first use. Most requests of the
 * functions that carry them never encrypt or decrypt (a settings read of a member without a
 * profile, a webhook listing): a dynamic import keeps their modules out of the cold start,
 * and in a single-file ESM bundle esbuild evaluates them only when the import runs.
 */
import type { AlgorithmSuiteIdentifier as SuiteIds, KeyringNode } from '@aws-crypto/client-node';

type EncryptionSdkModule = typeof import('@aws-crypto/client-node');

/** What the ciphers use of the SDK: its client, built once with key commitment required. */
export interface EncryptionSdk {
  sdk: EncryptionSdkModule;
  encrypt: ReturnType<EncryptionSdkModule['buildClient']>['encrypt'];
  decrypt: ReturnType<EncryptionSdkModule['buildClient']>['decrypt'];
  /** Key commitment without ECDSA signing: the writer and the reader are this service, no signature is needed. */
  suite: SuiteIds;
}

let loading: Promise<EncryptionSdk> | undefined;

/** The Encryption SDK, imported (and its client built) on the first call only. */
export function encryptionSdk(): Promise<EncryptionSdk> {
  loading ??= import('@aws-crypto/client-node').then((sdk) => {
    const { encrypt, decrypt } = sdk.buildClient(sdk.CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT);
    return { sdk, encrypt, decrypt, suite: sdk.AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY };
  });
  return loading;
}

/**
 * A keyring that is built on first use, so that holding one (a function's cipher, made at
 * its first request) loads nothing. The ciphers take it; only their encrypt and decrypt load it.
 */
export interface LazyKeyring {
  load(): Promise<KeyringNode>;
}

/** A lazy keyring from a builder, which runs once (a failed build is retried on the next use). */
export function lazyKeyring(build: () => Promise<KeyringNode>): LazyKeyring {
  let built: Promise<KeyringNode> | undefined;
  return {
    load() {
      built ??= build().catch((error: unknown) => {
        built = undefined;
        throw error;
      });
      return built;
    },
  };
}
