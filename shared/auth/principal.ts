import type { CredentialKind, Scope } from './access';
import { isScope } from './access';

/**
 * Who a bearer token belongs to, as the authorizer resolved it. It travels from the
 * authorizer to the handlers in requestContext.authorizer, whose values must be strings.
 */
export interface Principal {
  kind: CredentialKind;
  /** The user: always for personal keys; for ID tokens when the token maps to a known user. */
  userId?: string;
  /** The organization of an API key. */
  orgId?: string;
  keyId?: string;
  scopes: Scope[];
  /** ID tokens: the token's email claim, lower-cased, and whether the issuer verified it. */
  email?: string;
  emailVerified?: boolean;
  issuer?: string;
  subject?: string;
  name?: string;
}

export type AuthorizerContext = Record<string, string>;

export function principalToContext(principal: Principal): AuthorizerContext {
  const context: AuthorizerContext = { kind: principal.kind, scopes: principal.scopes.join(' ') };
  const optional = {
    user_id: principal.userId,
    org_id: principal.orgId,
    key_id: principal.keyId,
    email: principal.email,
    email_verified: principal.emailVerified === undefined ? undefined : String(principal.emailVerified),
    issuer: principal.issuer,
    subject: principal.subject,
    name: principal.name,
  };
  for (const [name, value] of Object.entries(optional)) if (value) context[name] = value;
  return context;
}

/** Reads the principal back from requestContext.authorizer; undefined when absent or malformed. */
export function principalFromContext(context: Record<string, unknown> | null | undefined): Principal | undefined {
  const kind = context?.kind;
  if (kind !== 'id_token' && kind !== 'org_key' && kind !== 'user_key') return undefined;
  const text = (name: string) => (typeof context?.[name] === 'string' && context[name] !== '' ? (context[name] as string) : undefined);
  return {
    kind,
    userId: text('user_id'),
    orgId: text('org_id'),
    keyId: text('key_id'),
    scopes: (text('scopes') ?? '').split(' ').filter(isScope),
    email: text('email'),
    emailVerified: text('email_verified') === undefined ? undefined : text('email_verified') === 'true',
    issuer: text('issuer'),
    subject: text('subject'),
    name: text('name'),
  };
}
