import type { MemberExportView } from '../../schemas/export-responses';
import type { MemberExport } from '../../storage/member-export-items';

/** A pre-signed download of the ZIP and when it stops working. */
export interface ExportDownload {
  url: string;
  expiresAt: string;
}

/** The MemberExport resource as the API shows it; the download only when completed. */
export function memberExportView(record: MemberExport, download?: ExportDownload): MemberExportView {
  return {
    id: record.id,
    object: 'member_export',
    user_id: record.user_id,
    status: record.status,
    include_media: record.include_media,
    requested_by: record.requested_by,
    created_at: record.created_at,
    started_at: record.started_at,
    completed_at: record.finished_at,
    expires_at: record.expires_at,
    size_bytes: record.status === 'completed' ? record.size_bytes : null,
    counts: record.status === 'completed' ? record.counts : null,
    download_url: download?.url ?? null,
    download_url_expires_at: download?.expiresAt ?? null,
    error: record.status === 'failed' ? record.error : null,
  };
}
