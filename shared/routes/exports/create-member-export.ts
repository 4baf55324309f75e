import { CreateMemberExportResponse } from '../../schemas/export-responses';
import { CreateMemberExportBody } from '../../schemas/exports';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { EXPORT_ACCESS, EXPORT_REFUSALS, queuedExportExample } from './export-docs';

export const createMemberExportRoute = defineRoute({
  name: 'createMemberExport',
  method: 'POST',
  path: '/api/v1/organization/{orgId}/users/{userId}/exports',
  handler: 'functions/exports/create-member-export',
  summary: "Export a member's data (GDPR art. 15 and 20): a ZIP written in the background",
  access: EXPORT_ACCESS,
  // GetItem: the membership; PutItem: the queued export.
  permissions: { table: ['GetItem', 'PutItem'] },
  request: { body: CreateMemberExportBody },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const createMemberExportDocs = (): OperationDocs => ({
  description:
    "Asks for an export of everything the organization holds about a member: their user and membership, settings with the decrypted profile, every recording they recorded (transcript, summaries, action items, translations; with `include_media`, the audio files), action items assigned to them in others' recordings, their audit entries and their personal API keys (metadata only). Answers 202 with the export `queued`; read it with Get member export until it is `completed`, then download the ZIP from its `download_url`. Owners and admins export any member, a member their own data (with their own ID token); organization keys need `governance:write`. The ZIP and the export are removed 7 days after they complete. docs/governance.md documents the file format.",
  responses: { 202: CreateMemberExportResponse },
  errors: EXPORT_REFUSALS(['MEMBER_NOT_FOUND']),
  examples: { request: { include_media: false }, responses: { 202: { success: true, data: queuedExportExample } } },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.memberId }, body: { include_media: false }, status: 202 }),
});
