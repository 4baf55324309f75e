import { ConflictError, NotFoundError } from '../core/errors';
import type { OrganizationLimits, RateLimit } from '../core/rate-limits';
import { findApiKeySecretById, getApiKey, setApiKeyRateLimit, setApiKeySecretRateLimit } from '../storage/api-keys';
import type { TableContext } from '../storage/dynamo';
import { getOrganizationLimits, setOrganizationLimits } from '../storage/organizations';
import { isConditionFailure } from '../storage/transactions';
import { retryOnWriteConflict } from '../storage/write-retries';

/* The operator's rate limits (CLI: org set-limits, org get-limits, key set-limits; docs/rate-limits.md). */

/** An organization's limits as the operator sees them: those that apply, and whether they are its own or the defaults. */
export interface OrganizationLimitsView extends OrganizationLimits {
  org_id: string;
  source: 'organization' | 'default';
}

/**
 * Gives an organization its own limits, or puts it back on the defaults (null). Functions apply
 * the change once their copy of the organization's limits is older than RATE_LIMIT_CACHE_SECONDS.
 */
export async function setLimitsOfOrganization(
  db: TableContext,
  orgId: string,
  limits: OrganizationLimits | null,
  defaults: OrganizationLimits,
  now: Date,
): Promise<OrganizationLimitsView> {
  try {
    await setOrganizationLimits(db, orgId, limits, now.toISOString());
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
    throw error;
  }
  return limits ? { org_id: orgId, ...limits, source: 'organization' } : { org_id: orgId, ...defaults, source: 'default' };
}

/** The limits that apply to an organization: its own, or the defaults. */
export async function limitsOfOrganization(db: TableContext, orgId: string, defaults: OrganizationLimits): Promise<OrganizationLimitsView> {
  const own = await getOrganizationLimits(db, orgId);
  if (own === undefined) throw new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);
  return own ? { org_id: orgId, ...own, source: 'organization' } : { org_id: orgId, ...defaults, source: 'default' };
}

/**
 * Gives an API key its own rate limit, counted besides its organization's, or removes it (null).
 * The authorizer passes it on with the key, so a key's cached authorizer result (60 s) may
 * still carry the previous limit that long.
 */
export async function setRateLimitOfApiKey(
  db: TableContext,
  keyId: string,
  limit: RateLimit | null,
  now: Date,
): Promise<{ key_id: string; org_id: string; rate_limit: RateLimit | null }> {
  const secret = await findApiKeySecretById(db, keyId);
  if (!secret) throw new NotFoundError('KEY_NOT_FOUND', `API key ${keyId} does not exist.`);
  const done = { key_id: keyId, org_id: secret.org_id, rate_limit: limit };
  if (!(await getApiKey(db, secret.org_id, keyId))) {
    if (secret.revoked_at) throw new ConflictError('KEY_REVOKED', `API key ${keyId} is revoked.`);
    await setApiKeySecretRateLimit(db, secret.key_hash, limit);
    return done;
  }
  await retryOnWriteConflict(
    async () => {
      const current = await getApiKey(db, secret.org_id, keyId);
      if (!current) throw new NotFoundError('KEY_NOT_FOUND', `API key ${keyId} does not exist.`);
      if (current.revoked_at) throw new ConflictError('KEY_REVOKED', `API key ${keyId} is revoked.`);
      await setApiKeyRateLimit(db, current, { ...current, rate_limit: limit }, now);
    },
    {
      attempts: 5,
      exhausted: () => new ConflictError('CONCURRENT_UPDATE', 'The key changed too often while its limit was being set; try again.'),
    },
  );
  return done;
}
