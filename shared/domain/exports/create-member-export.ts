import type { Caller } from '../../auth/policy';
import { NotFoundError } from '../../core/errors';
import { newId } from '../../ids';
import type { CreateMemberExportBody } from '../../schemas/exports';
import type { TableContext } from '../../storage/dynamo';
import type { MemberExport } from '../../storage/member-export-items';
import { insertMemberExport } from '../../storage/member-exports';
import { getMembership } from '../../storage/memberships';
import { requireExportAccess } from './export-access';

export interface ExportRequestDeps {
  db: TableContext;
  now: () => Date;
}

/**
 * Create member export: records a `queued` export of an active member; its item's insert is
 * the `user.export_requested` event, whose consumer writes the ZIP (run-member-export.ts).
 * Two reads at most: the membership, then the write.
 */
export async function createMemberExport(
  deps: ExportRequestDeps,
  caller: Caller,
  userId: string,
  body: CreateMemberExportBody,
): Promise<MemberExport> {
  requireExportAccess(caller, userId);
  const membership = await getMembership(deps.db, caller.orgId, userId);
  if (membership?.status !== 'active')
    throw new NotFoundError('MEMBER_NOT_FOUND', `User ${userId} is not an active member of this organization.`);
  const record = queuedMemberExport({
    id: newId('exp'),
    orgId: caller.orgId,
    userId,
    includeMedia: body.include_media,
    requestedBy: caller.actor,
    at: deps.now(),
  });
  await insertMemberExport(deps.db, record);
  return record;
}

/** A new export as it is first written (also the demo's and the sample data's). */
export function queuedMemberExport(what: {
  id: string;
  orgId: string;
  userId: string;
  includeMedia: boolean;
  requestedBy: string;
  at: Date;
}): MemberExport {
  const at = what.at.toISOString();
  return {
    id: what.id,
    org_id: what.orgId,
    user_id: what.userId,
    status: 'queued',
    include_media: what.includeMedia,
    requested_by: what.requestedBy,
    created_at: at,
    updated_at: at,
    started_at: null,
    finished_at: null,
    expires_at: null,
    object_key: null,
    size_bytes: null,
    counts: null,
    error: null,
    run_event_id: null,
  };
}
