import type { Scope } from '../core/access';
import { isScope } from '../core/access';
import { formatRateLimit, type RateLimit } from '../core/rate-limits';
import { parseRateLimit } from '../schemas/rate-limits';

/** A signed-in person, by a verified ID token of the configured issuer. */
export interface IdTokenPrincipal {
  kind: 'id_token';
  /** The user the token maps to; absent for someone who is not a user yet (accepting a first invitation). */
  userId?: string;
  issuer: string;
  subject: string;
  /** The token's email claim, lower-cased, and whether the issuer verified it. */
  email?: string;
  emailVerified: boolean;
  name?: string;
}

/** An organization API key: acts for the organization, with its scopes. */
export interface OrgKeyPrincipal {
  kind: 'org_key';
  orgId: string;
  keyId: string;
  scopes: Scope[];
  /** The key's own rate limit, when it has one (docs/rate-limits.md). */
  rateLimit?: RateLimit;
}

/** A personal API key: acts as its user in its organization, with its scopes. */
export interface UserKeyPrincipal {
  kind: 'user_key';
  orgId: string;
  keyId: string;
  userId: string;
  scopes: Scope[];
  /** The key's own rate limit, when it has one (docs/rate-limits.md). */
  rateLimit?: RateLimit;
}

/**
 * Who a bearer token belongs to, as the authorizer resolved it, by credential kind. It
 * travels from the authorizer to the handlers in requestContext.authorizer, whose values
 * must be strings.
 */
export type Principal = IdTokenPrincipal | OrgKeyPrincipal | UserKeyPrincipal;

export type AuthorizerContext = Record<string, string>;

/**
 * The principalId API Gateway records for a request (its access log's `principalId`): the
 * user when there is one, else the key, else the token's subject.
 */
export function principalIdOf(principal: Principal): string {
  if (principal.kind === 'id_token') return principal.userId ?? principal.subject;
  return principal.kind === 'user_key' ? principal.userId : principal.keyId;
}

/** The principal as the authorizer's context: string values only, absent fields left out. */
export function principalToContext(principal: Principal): AuthorizerContext {
  const fields: Record<string, string | undefined> =
    principal.kind === 'id_token'
      ? {
          user_id: principal.userId,
          email: principal.email,
          email_verified: String(principal.emailVerified),
          issuer: principal.issuer,
          subject: principal.subject,
          name: principal.name,
        }
      : {
          org_id: principal.orgId,
          key_id: principal.keyId,
          user_id: principal.kind === 'user_key' ? principal.userId : undefined,
          scopes: principal.scopes.join(' '),
          rate_limit: principal.rateLimit && formatRateLimit(principal.rateLimit),
        };
  const context: AuthorizerContext = { kind: principal.kind };
  for (const [name, value] of Object.entries(fields)) if (value) context[name] = value;
  return context;
}

/**
 * Reads the principal back from requestContext.authorizer; undefined when absent or
 * malformed (an unknown kind, or a field its kind requires is missing). Unknown scopes are dropped.
 */
export function principalFromContext(context: Record<string, unknown> | null | undefined): Principal | undefined {
  const text = (name: string) => {
    const value = context?.[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const scopes = () => (text('scopes') ?? '').split(' ').filter(isScope);
  const [kind, userId, orgId, keyId] = [text('kind'), text('user_id'), text('org_id'), text('key_id')];
  if (kind === 'id_token') {
    const [issuer, subject] = [text('issuer'), text('subject')];
    if (!issuer || !subject) return undefined;
    return { kind, userId, issuer, subject, email: text('email'), emailVerified: text('email_verified') === 'true', name: text('name') };
  }
  // A key's own limit that does not read as one is dropped: the organization's limit still applies.
  const rateLimit = parseRateLimit(text('rate_limit'));
  const limited = rateLimit ? { rateLimit } : {};
  if (kind === 'org_key') return orgId && keyId ? { kind, orgId, keyId, scopes: scopes(), ...limited } : undefined;
  if (kind === 'user_key') return orgId && keyId && userId ? { kind, orgId, keyId, userId, scopes: scopes(), ...limited } : undefined;
  return undefined;
}
