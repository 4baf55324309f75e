import * as v from 'valibot';
import { described, envelope, NullableString, TIMESTAMP } from './envelopes';

/* The member export routes' responses, for the OpenAPI document and the contract check. */

const Counts = v.strictObject({
  recordings: described(v.number(), 'Recordings the member recorded, live and in the trash.'),
  media_files: described(v.number(), 'Audio files copied (0 without `include_media`).'),
  assigned_action_items: described(v.number(), "Action items assigned to the member in others' recordings."),
  audit_entries: described(v.number(), 'Audit log entries where the member is the actor.'),
  api_keys: described(v.number(), "The member's personal API keys (metadata only)."),
});

/** The MemberExport resource. */
export const MemberExport = v.strictObject({
  id: described(v.string(), 'The export (`exp_…`).'),
  object: described(v.literal('member_export'), 'Always `member_export`.'),
  user_id: described(v.string(), 'The member whose data it holds.'),
  status: described(
    v.picklist(['queued', 'running', 'completed', 'failed']),
    '`queued` until the service picks it up, `running` while the ZIP is written, then `completed` (downloadable) or `failed` (see `error`).',
  ),
  include_media: described(v.boolean(), 'Whether the ZIP holds the audio files.'),
  requested_by: described(v.string(), 'Who asked for it: a user id, or an organization API key id.'),
  created_at: described(v.string(), `When it was asked for (${TIMESTAMP})`),
  started_at: described(NullableString, `When the service began writing it; null while queued (${TIMESTAMP})`),
  completed_at: described(NullableString, `When it completed or failed; null before (${TIMESTAMP})`),
  expires_at: described(
    NullableString,
    `When the ZIP and the export are removed: 7 days after it completed or failed; null before (${TIMESTAMP})`,
  ),
  size_bytes: described(v.nullable(v.number()), 'The ZIP file size in bytes; null until completed.'),
  counts: described(v.nullable(Counts), 'What the ZIP holds; null until completed.'),
  download_url: described(
    NullableString,
    'When completed: a pre-signed URL that downloads the ZIP, good for 15 minutes and issued anew on every read; null otherwise.',
  ),
  download_url_expires_at: described(NullableString, `When \`download_url\` stops working; null without one (${TIMESTAMP})`),
  error: described(
    NullableString,
    'When failed: why, as a code (`member_not_found`: the person left the organization before it ran; `internal_error`); null otherwise.',
  ),
});
export type MemberExportView = v.InferOutput<typeof MemberExport>;

export const CreateMemberExportResponse = envelope(
  described(MemberExport, 'The export, `queued`: read it with Get member export until it completes.'),
);
export const GetMemberExportResponse = envelope(described(MemberExport, 'The export, with a fresh `download_url` once completed.'));
