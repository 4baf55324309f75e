import type { AuthenticateDeps } from '../auth/authenticate';
import { createIdTokenVerifier } from '../auth/id-tokens';
import { keyUseRecorder } from '../auth/key-usage';
import { config } from '../config';
import { table } from '../storage/dynamo';

/**
 * The authorizer's composition root: the table, the ID token verifier of the configured issuer
 * (none: ID tokens are refused), the clock and the recorder of keys' last use, built from config
 * on first use and kept for the warm function (the verifier caches the issuer's keys).
 */

let deps: AuthenticateDeps | undefined;

export function authenticationDeps(): AuthenticateDeps {
  if (!deps) {
    const idTokenSettings = config().idToken;
    deps = {
      db: table(),
      verifyIdToken: idTokenSettings ? createIdTokenVerifier(idTokenSettings) : undefined,
      now: () => new Date(),
      recordKeyUse: keyUseRecorder(table()),
    };
  }
  return deps;
}
