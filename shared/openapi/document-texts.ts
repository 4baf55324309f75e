/**
 * The OpenAPI document's prose: what `info.description` tells a newcomer, each tag's
 * description, and the webhook every endpoint receives. shared/openapi/document.ts builds the
 * operations from the manifest and puts these beside them.
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  health: 'Liveness of the API: the one operation that takes no credential.',
  users: "An organization's members: list them, read and change their settings bundle, change their role, remove them (docs/members.md).",
  recordings:
    "An organization's recordings: list, read, play, change, trash and restore them, transcribe them and export their transcripts (docs/transcription.md). Uploads go through the public API.",
  templates: 'Summarization templates shared by every member of an organization.',
  invites: 'Invitations to join an organization by email, and their acceptance by the invited person.',
  usage: "An organization's transcription minutes of a month, per member, and its monthly allowance (docs/transcription.md).",
  'audit-log': 'Who changed what in an organization: one entry per committed change, kept AUDIT_RETENTION_DAYS (365 by default).',
  'api-keys':
    "An organization's API keys: organization keys and personal keys, created, rotated and revoked with an ID token (docs/api-keys.md).",
  webhooks: 'HTTPS endpoints that receive the domain events of an organization, signed, with retries; their deliveries (docs/webhooks.md).',
  public:
    'The public API: the organization comes from the API key (or `org_id` with an ID token); uploads, the recordings list and aliases of the member routes.',
};

/** What `info.description` tells a newcomer: what the API is, how to authenticate, and the conventions every operation follows. */
export const INFO_DESCRIPTION = [
  'The API organizations use to administer their members and the voice recordings, transcripts, AI summaries, summarization templates, invitations, API keys and webhooks of those members.',
  '',
  '**Authenticate** every operation but `/health` with `Authorization: Bearer <token>`, the token being either:',
  '',
  "- an **ID token**: the OpenID Connect JWT of a signed-in member (in AWS, from the stack's Cognito user pool: docs/deploy.md). Locally, `npx voice-org token --user usr_demo_owner` mints one for the demo organization's owner;",
  '- an **API key**: an organization key (`pk_org_…`) acts for the organization within its scopes; a personal key (`pk_user_…`) acts as its member, within their role. `npm start` prints a demo organization key; `npx voice-org key create --org org_demo --scopes users:read,recordings:read` makes another (the key is shown only then), and Create API key makes them through the API.',
  '',
  'Each operation says which credentials it takes and the role or scopes they need. A missing, malformed, expired or unknown token is 401 `UNAUTHORIZED`; a credential that may not do this is 403, its code saying why.',
  '',
  '**Errors** all use one envelope, `{"success": false, "data": null, "error": "CODE", "message": "…"}`, a 400 adding `details` (one entry per offending field); each operation lists, per status, the codes it can answer and what they mean. Every response carries `x-correlation-id` (send your own to trace a request).',
  '',
  "**Rate limits.** Each organization's requests count against its rate limit (the deployment's default, or the organization's own) and, when it has one, a daily quota; an API key may have a tighter limit of its own. Responses say where a client stands with `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; over a limit, the answer is 429 `RATE_LIMITED` or `QUOTA_EXCEEDED` with `Retry-After` (seconds): wait that long, then retry (docs/rate-limits.md).",
  '',
  '**Conventions.** Bodies are JSON. Timestamps are ISO 8601 UTC with milliseconds. Lists are paged with `page` and `limit` (some with a `cursor`). Every POST takes an `Idempotency-Key`, so a retry is safe.',
].join('\n');

/**
 * How each credential is verified (shared/auth/id-tokens.ts, shared/auth/authenticate.ts), for
 * clients and for scanners that look for a JWT practice (RFC 8725, JSON Web Token Best Current Practices).
 */
export const SECURITY_SCHEMES = {
  idToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: [
      "An OpenID Connect ID token (RS256) of a signed-in user: the stack's Cognito user pool in AWS; locally `npx voice-org token --user <user_id>`.",
      'Verified as RFC8725 (JSON Web Token Best Current Practices) asks: the algorithm is fixed to RS256, whatever the header says (`none`, HMAC and any other `alg` are refused);',
      "the signature is checked against the issuer's JWKS; `iss` must be the configured issuer and `aud` one of the configured audiences; `sub` and `exp` are required, and `exp` and `nbf` enforced;",
      'a token that has `token_use` must be an ID token (`id`), never an access token. Any failure is 401 `UNAUTHORIZED`.',
    ].join(' '),
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key: an organization key (`pk_org_…`) or a personal key (`pk_user_…`), sent on the same `Authorization: Bearer` header as an ID token. ' +
      'A key is an opaque random secret, not a JWT: the API keeps only its hash, and looks it up. `npm start` prints a demo key; `npx voice-org key create` or Create API key make others.',
  },
};

/** The server of the document: whichever deployment serves it (its URL is the caller's, or `/`). */
export const SERVER_DESCRIPTION =
  'This deployment of the API: the stage that served this document (a stage in AWS, such as production or staging, or local with `npm start`).';

/** The signed POST every webhook endpoint receives (docs/webhooks.md): the one place DomainEvent is the body of a request. */
export const WEBHOOK_DELIVERY = {
  post: {
    operationId: 'receiveDomainEvent',
    summary: 'A domain event, delivered to a webhook endpoint',
    description:
      "What the service POSTs to each enabled endpoint subscribed to the event type (Create webhook): the event envelope, signed by the Standard Webhooks scheme. Verify the signature with the endpoint's secret, deduplicate on `webhook-id`, answer 2xx within 10 seconds, then do the work. Anything else is a failure, retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 12 h; an endpoint whose attempts all fail for 3 days is disabled (docs/webhooks.md).",
    tags: ['webhooks'],
    // Its parameters are the headers of shared/schemas/webhooks.ts WebhookDeliveryHeaders (shared/openapi/document.ts).
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/DomainEvent' },
          example: {
            id: 'evt_4f1c2b7e3d4a4e5f9a8b0c1d2e3f4a5b',
            type: 'recording.uploaded',
            occurred_at: '2026-11-20T09:30:00.000Z',
            org_id: 'org_demo',
            actor: null,
            correlation_id: null,
            resource: { type: 'recording', id: 'rec_8f2a4c6e0b1d3f5a7c9e' },
            data: { recorded_by: 'usr_demo_member', state: 'uploaded', size_bytes: 48213504 },
          },
        },
      },
    },
    responses: {
      '200': { description: 'Received (any 2xx within 10 seconds): the delivery succeeded. The body is ignored.' },
      '400': { description: 'Any other answer, a redirect or a timeout is a failure: the delivery is tried again later.' },
    },
    security: [],
  },
};
