import type { ErrorCode } from '../../core/error-codes';
import type { RouteAccess } from '../route-definition';
import type { ErrorCodes } from '../route-docs';

/** What the export routes share: who may call them, and their examples (docs/governance.md, "Export"). */

/**
 * ID tokens of every role, so that a member can export their own data (the domain refuses
 * another member's below admin: 403 INSUFFICIENT_ROLE), and org keys with governance:write: an
 * export holds the decrypted profile, which governance:read does not reach. No personal keys.
 */
export const EXPORT_ACCESS = { idToken: { minRole: 'viewer' }, orgKey: { scopes: ['governance:write'] } } as const satisfies RouteAccess;

/** The refusals of the export routes' own logic: another member's data below admin, and what is not found. */
export const EXPORT_REFUSALS = (notFound: ErrorCode[]): ErrorCodes => ({
  403: ['INSUFFICIENT_ROLE'],
  404: notFound,
});

// Literals, with no spread: a bundler drops them from a handler's bundle only when they are pure.
export const queuedExportExample = {
  id: 'exp_3f9a1c2b7d4e5f6a7b8c',
  object: 'member_export',
  user_id: 'usr_demo_member',
  include_media: false,
  requested_by: 'usr_demo_owner',
  created_at: '2026-11-20T09:00:00.000Z',
  status: 'queued',
  started_at: null,
  completed_at: null,
  expires_at: null,
  size_bytes: null,
  counts: null,
  download_url: null,
  download_url_expires_at: null,
  error: null,
};

export const completedExportExample = {
  id: 'exp_3f9a1c2b7d4e5f6a7b8c',
  object: 'member_export',
  user_id: 'usr_demo_member',
  include_media: false,
  requested_by: 'usr_demo_owner',
  created_at: '2026-11-20T09:00:00.000Z',
  status: 'completed',
  started_at: '2026-11-20T09:00:01.200Z',
  completed_at: '2026-11-20T09:00:04.800Z',
  expires_at: '2026-11-27T09:00:04.800Z',
  size_bytes: 182_340,
  counts: { recordings: 12, media_files: 0, assigned_action_items: 3, audit_entries: 41, api_keys: 1 },
  download_url:
    'https://voiceorgapi-prod-recordingsbucket-example.s3.amazonaws.com/exports/org_demo/usr_demo_member/exp_3f9a1c2b7d4e5f6a7b8c.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=…',
  download_url_expires_at: '2026-11-20T09:15:00.000Z',
  error: null,
};
