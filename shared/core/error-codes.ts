/**
 * Every error code the API (and its operator CLI) answers with, the statuses it comes with,
 * and what it means to a client. The error classes (shared/core/errors.ts) take an
 * `ErrorCode`, so a code that is not in this catalog does not compile; the OpenAPI document
 * lists, per operation and status, the codes of shared/openapi/refusals.ts with these
 * meanings, and the integration tests refuse a response whose code is not listed there.
 *
 * Handlers import the error classes, which use this module for its type only: the meanings
 * are not in any handler bundle (only the document generator and the tests read them).
 */
export const ERROR_CODES = {
  // Requests the API cannot read.
  VALIDATION_ERROR: {
    statuses: [400],
    meaning: 'A path or query parameter or a body field is invalid, missing or unknown; `details` names each problem.',
  },
  INVALID_JSON: { statuses: [400], meaning: 'The body is not valid JSON, or not a JSON object.' },
  INVALID_IDEMPOTENCY_KEY: { statuses: [400], meaning: 'The Idempotency-Key header is not 1 to 255 printable ASCII characters.' },
  ORG_ID_REQUIRED: {
    statuses: [400],
    meaning: 'An ID token of someone who administers several organizations must name one with `org_id`.',
  },
  BAD_REQUEST: {
    statuses: [400, 414, 431],
    meaning:
      'API Gateway refused the request before the API saw it: malformed (such as broken percent-encoding in a path id), or over its URL (8,192 characters) or header (10,240 bytes) limits.',
  },
  REQUEST_TOO_LARGE: { statuses: [413], meaning: 'The body is over the 10 MB limit of API Gateway.' },
  UNSUPPORTED_MEDIA_TYPE: {
    statuses: [415],
    meaning: 'The body is not JSON: send `Content-Type: application/json` (or a `+json` type), or none.',
  },
  ROUTE_NOT_FOUND: { statuses: [404], meaning: 'No route matches this method and path (for example a path id holding an encoded slash).' },

  // Credentials and access.
  UNAUTHORIZED: { statuses: [401], meaning: 'No bearer token, or a malformed, expired, unknown or revoked one; the message says which.' },
  API_KEY_REQUIRED: { statuses: [403], meaning: 'This operation takes an API key, not an ID token.' },
  API_KEY_NOT_ALLOWED: { statuses: [403], meaning: "This operation takes a signed-in user's ID token, not an API key." },
  ORG_KEY_NOT_ALLOWED: { statuses: [403], meaning: 'Organization API keys cannot call this operation.' },
  USER_KEY_NOT_ALLOWED: { statuses: [403], meaning: 'Personal API keys (`pk_user_…`) cannot call this operation.' },
  ORG_KEY_ORG_MISMATCH: { statuses: [403], meaning: 'The organization API key belongs to another organization than the one named.' },
  USER_KEY_ORG_MISMATCH: { statuses: [403], meaning: "The personal API key's member belongs to another organization than the one named." },
  INSUFFICIENT_SCOPES: { statuses: [403], meaning: 'The API key lacks a scope this operation (or this use of it) needs.' },
  INSUFFICIENT_ROLE: {
    statuses: [403],
    meaning: 'The caller is not an active member of the organization, or their role is below the one needed.',
  },

  // Idempotency-Key (docs/idempotency.md).
  IDEMPOTENCY_KEY_IN_PROGRESS: {
    statuses: [409],
    meaning: 'The first request with this Idempotency-Key is still running: retry after Retry-After seconds.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    statuses: [422],
    meaning: 'This Idempotency-Key was already used with a different request (body or path): use a new key.',
  },

  // Throttling and failures.
  TOO_MANY_REQUESTS: { statuses: [429], meaning: "Over the stage's throttling limits: slow down and retry shortly." },
  RATE_LIMITED: {
    statuses: [429],
    meaning:
      "Over the organization's rate limit, or the API key's own: retry after `Retry-After` seconds (docs/rate-limits.md). The request did not run and was not counted.",
  },
  QUOTA_EXCEEDED: {
    statuses: [429],
    meaning: 'The organization has used its daily quota: it renews at 00:00 UTC, in `Retry-After` seconds. The request did not run.',
  },
  INTERNAL_ERROR: { statuses: [500], meaning: 'The request could not be completed; it has been logged with its correlation id.' },

  // Member settings (the spec's codes).
  EMPTY_PATCH: { statuses: [400], meaning: 'The body names none of settings, notifications, profile, preferences.' },
  INVALID_SETTING: {
    statuses: [400],
    meaning: 'A settings or notifications field is unknown, read-only or invalid (or the body has an unknown section).',
  },
  INVALID_PROFILE: { statuses: [400], meaning: 'The profile is not an object holding a `profile` string of at most 100,000 characters.' },
  INVALID_PREFERENCES: { statuses: [400], meaning: 'A preference entry is invalid, or names a preference the member does not have.' },

  // Members.
  MEMBER_NOT_FOUND: { statuses: [404], meaning: 'The user is not an active member of the organization.' },
  CANNOT_MANAGE_MEMBER: {
    statuses: [403],
    meaning: "The caller's role may not change or remove this member (admins manage members and viewers; others only leave).",
  },
  CANNOT_ASSIGN_ROLE: { statuses: [403], meaning: 'Only an owner may make someone an admin or an owner.' },
  LAST_OWNER: { statuses: [409], meaning: 'The change would leave the organization without an active owner.' },
  CONCURRENT_UPDATE: { statuses: [409], meaning: 'The resource kept changing under the request: read it again and retry.' },

  // Recordings.
  RECORDING_NOT_FOUND: {
    statuses: [404],
    meaning: 'The recording does not exist in this organization (or in its trash, for restore; or is not yours, for a personal key).',
  },
  RECORDING_NOT_UPLOADED: {
    statuses: [409],
    meaning: 'The recording has no playable or transcribable file yet (its upload is pending or failed).',
  },

  // Transcription (docs/transcription.md).
  TRANSCRIPTION_IN_PROGRESS: {
    statuses: [409],
    meaning: "The recording's transcription is queued or running: wait for `transcript_status` to be `completed` or `failed`.",
  },
  TRANSCRIPTION_QUOTA_EXCEEDED: {
    statuses: [403],
    meaning:
      'The organization has used its monthly allowance of transcription minutes (`org set-limits --transcription-minutes`): it renews on the 1st at 00:00 UTC.',
  },
  TRANSCRIPT_NOT_FOUND: { statuses: [404], meaning: 'The recording has no transcript yet.' },
  TRANSCRIPT_NOT_READY: { statuses: [409], meaning: 'The recording has no completed transcript yet.' },

  // Translation (docs/translations.md).
  TRANSLATION_IN_PROGRESS: {
    statuses: [409],
    meaning: "The recording's translation is queued or running: wait for its `processing_status` to be `completed` or `failed`.",
  },
  TRANSLATION_NOT_FOUND: {
    statuses: [404],
    meaning: 'The recording has no completed translation into this language: ask for one with Translate recording.',
  },

  // Search and ask (docs/search.md).
  INVALID_QUERY: {
    statuses: [400],
    meaning: 'The search query is empty or longer than 500 characters, or `mode` or `in` names something Search does not know.',
  },
  SEARCH_NOT_ENABLED: {
    statuses: [501],
    meaning: 'This deployment was deployed without search (`-c search=off`): Search and Ask are not available.',
  },
  SEMANTIC_SEARCH_UNAVAILABLE: {
    statuses: [409],
    meaning: 'This deployment has no embedding model, so `mode=semantic` cannot run: use `keyword` or `hybrid`.',
  },

  // Summaries (docs/summaries.md).
  SUMMARY_IN_PROGRESS: {
    statuses: [409],
    meaning: 'A summary with this template is queued or running for the recording: wait for it to complete or fail.',
  },
  SUMMARY_LIMIT_REACHED: { statuses: [409], meaning: 'The recording has the most summaries allowed (20): delete one first.' },
  SUMMARY_NOT_FOUND: { statuses: [404], meaning: 'The summary does not exist for this recording.' },
  ACTION_ITEM_NOT_FOUND: { statuses: [404], meaning: 'The action item does not exist in this summary.' },

  // Templates.
  TEMPLATE_NOT_FOUND: { statuses: [404], meaning: 'The template does not exist in this organization.' },

  // Invitations.
  INVITE_NOT_FOUND: { statuses: [404], meaning: 'The invitation does not exist in this organization, or no invitation matches the token.' },
  ALREADY_MEMBER: { statuses: [409], meaning: 'The email already belongs to an active member of the organization.' },
  INVITE_PENDING: { statuses: [409], meaning: 'The email already has a (newer) pending invitation to the organization.' },
  INVITE_NOT_PENDING: { statuses: [409], meaning: 'The invitation is accepted, revoked or expired, not pending.' },
  INVITE_ALREADY_ACCEPTED: { statuses: [409], meaning: 'The invitation was already accepted.' },
  INVITE_EMAIL_MISMATCH: { statuses: [403], meaning: "The invitation was sent to another email than the caller's verified one." },
  INVITE_REVOKED: { statuses: [410], meaning: 'The invitation was revoked.' },
  INVITE_EXPIRED: { statuses: [410], meaning: 'The invitation has expired: ask for a new one.' },

  // API keys (docs/api-keys.md).
  KEY_NOT_FOUND: { statuses: [404], meaning: 'The API key does not exist in this organization, or the caller may not see it.' },
  SCOPES_EXCEED_ROLE: { statuses: [403], meaning: "A requested scope is beyond the caller's role (or, for a personal key, the member's)." },
  NOT_KEY_OWNER: { statuses: [403], meaning: 'Only its own member rotates a personal key (others may revoke it).' },
  KEY_REVOKED: { statuses: [409], meaning: 'The API key is revoked: create a new one.' },
  KEY_EXPIRED: { statuses: [409], meaning: 'The API key has expired: create a new one.' },

  // Webhooks (docs/webhooks.md).
  WEBHOOK_NOT_FOUND: { statuses: [404], meaning: 'The webhook endpoint does not exist in this organization.' },
  WEBHOOK_DELIVERY_NOT_FOUND: { statuses: [404], meaning: 'The delivery does not exist for this webhook endpoint.' },
  WEBHOOK_URL_NOT_ALLOWED: {
    statuses: [400],
    meaning: 'The endpoint URL is not HTTPS, or its host does not resolve to public addresses only.',
  },
  WEBHOOK_LIMIT_REACHED: { statuses: [409], meaning: 'The organization has the most webhook endpoints allowed (10): delete one first.' },
  WEBHOOK_DISABLED: { statuses: [409], meaning: 'The webhook endpoint is disabled: enable it first.' },
  DELIVERY_IN_PROGRESS: { statuses: [409], meaning: 'The delivery is being attempted right now: try again in a minute.' },

  // The operator CLI only (npm run cli): never answered by the HTTP API.
  // Governance (docs/governance.md).
  LEGAL_HOLD: {
    statuses: [409],
    meaning:
      "A legal hold keeps the recording (or the member's recordings): it may not be deleted, purged, expired or erased until the hold is released.",
  },
  EXPORT_NOT_FOUND: { statuses: [404], meaning: 'The export does not exist for this member (or is past its 7 days).' },
  ERASURE_NOT_FOUND: { statuses: [404], meaning: 'The erasure does not exist for this member.' },
  INVALID_CONFIRMATION: { statuses: [400], meaning: "`confirm` is not the member's email address." },
  // Transcripts' controls (docs/transcription.md).
  INVALID_SPEAKERS: {
    statuses: [400],
    meaning: "A speaker's label is not one of the transcript's, or its user_id is not an active member of the organization.",
  },

  ORG_NOT_FOUND: { statuses: [404], meaning: 'The organization does not exist.' },
  USER_NOT_FOUND: { statuses: [404], meaning: 'The user does not exist.' },
  ORG_EXISTS: { statuses: [409], meaning: 'An organization with this id already exists.' },
  USER_EXISTS: { statuses: [409], meaning: 'A user with this id or email already exists.' },
  MEMBER_EXISTS: { statuses: [409], meaning: 'The user is already in the organization.' },
  EMAIL_TAKEN: { statuses: [409], meaning: 'The email already belongs to another user.' },
  EMAIL_MISMATCH: { statuses: [409], meaning: 'The user exists with another email; changing it is not supported.' },
  TAG_EXISTS: { statuses: [409], meaning: 'The tag id belongs to another member.' },
  INVALID_FIXTURE: { statuses: [400], meaning: 'The fixture file is not JSON, or does not satisfy the fixture format (docs/fixtures.md).' },
  KEY_EXISTS: { statuses: [409], meaning: 'The API key is already registered (with other settings).' },
} as const satisfies Record<string, { statuses: readonly number[]; meaning: string }>;

/** An error code of the API: a key of ERROR_CODES. */
export type ErrorCode = keyof typeof ERROR_CODES;
