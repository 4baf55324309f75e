import { GetMemberExportResponse } from '../../schemas/export-responses';
import { defineRoute } from '../route-definition';
import type { OperationDocs } from '../route-docs';
import { completedExportExample, EXPORT_ACCESS, EXPORT_REFUSALS } from './export-docs';

export const getMemberExportRoute = defineRoute({
  name: 'getMemberExport',
  method: 'GET',
  path: '/api/v1/organization/{orgId}/users/{userId}/exports/{exportId}',
  handler: 'functions/exports/get-member-export',
  summary: "Read a member's data export, with a fresh download URL once it is completed",
  access: EXPORT_ACCESS,
  // GetItem: the export; GetObject: what the download URL is signed with (no request reaches S3).
  permissions: { table: ['GetItem'], exportObjects: ['GetObject'] },
});

/** Docs, examples and sample request: a function, so the handler's bundle leaves them out (route-docs.ts). */
export const getMemberExportDocs = (): OperationDocs => ({
  description:
    'Reads an export: `queued`, `running`, `completed` or `failed`. A completed export carries `download_url`, a pre-signed URL of the ZIP good for 15 minutes: each read issues a new one. Same callers as Create member export. An export is gone (404) 7 days after it completed or failed.',
  responses: { 200: GetMemberExportResponse },
  errors: EXPORT_REFUSALS(['EXPORT_NOT_FOUND']),
  examples: { responses: { 200: { success: true, data: completedExportExample } } },
  sample: (ids) => ({ credential: 'orgKey', path: { userId: ids.memberId, exportId: ids.exportId }, status: 200 }),
});
