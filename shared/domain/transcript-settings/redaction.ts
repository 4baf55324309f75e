import type { Caller } from '../../auth/policy';
import { NotFoundError } from '../../core/errors';
import { expandEntityTypes, type PiiEntityType } from '../../core/pii-entity-types';
import type { UpdateRedactionBody } from '../../schemas/transcript-controls';
import type { TableContext } from '../../storage/dynamo';
import { getOrganization } from '../../storage/organizations';
import type { RedactionSetting } from '../../storage/transcript-setting-items';
import { setRedaction } from '../../storage/transcript-settings';
import { isConditionFailure } from '../../storage/transactions';

/**
 * The organization's PII redaction (docs/transcript-controls.md, "Redaction"): off by default; on, every
 * transcript completed afterwards is stored redacted of the entity types set.
 */
export interface RedactionDeps {
  db: TableContext;
  now: () => Date;
}

export interface RedactionView {
  pii: 'off' | 'redact';
  entity_types: string[];
  updated_at: string | null;
  updated_by: string | null;
}

const viewOf = (setting: RedactionSetting | undefined): RedactionView => ({
  pii: setting?.pii ?? 'off',
  entity_types: setting?.entity_types ?? ['ALL'],
  updated_at: setting?.updated_at ?? null,
  updated_by: setting?.updated_by ?? null,
});

const orgNotFound = (orgId: string) => new NotFoundError('ORG_NOT_FOUND', `Organization ${orgId} does not exist.`);

export async function getRedaction(deps: RedactionDeps, orgId: string): Promise<RedactionView> {
  const org = await getOrganization(deps.db, orgId);
  if (!org) throw orgNotFound(orgId);
  return viewOf(org.redaction);
}

export async function updateRedaction(deps: RedactionDeps, caller: Caller, body: UpdateRedactionBody): Promise<RedactionView> {
  const setting: RedactionSetting = {
    pii: body.pii,
    entity_types: body.entity_types,
    updated_at: deps.now().toISOString(),
    updated_by: caller.actor,
  };
  try {
    await setRedaction(deps.db, caller.orgId, setting);
  } catch (error) {
    if (isConditionFailure(error)) throw orgNotFound(caller.orgId);
    throw error;
  }
  return viewOf(setting);
}

/** The entity types a transcript completed now is redacted of; empty when redaction is off. */
export function redactedTypesOf(setting: RedactionSetting | undefined): PiiEntityType[] {
  if (setting?.pii !== 'redact') return [];
  return expandEntityTypes(setting.entity_types as (PiiEntityType | 'ALL')[]);
}
