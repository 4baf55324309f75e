import { sweepRetention } from '../../shared/domain/governance/retention';
import { Id } from '../../shared/schemas/common';
import { flag, type CommandSpec } from './command-line';
import type { CliTarget } from './target';

const now = () => new Date();

/** The retention policy's sweep, on demand (docs/governance.md). */
export const RETENTION_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'retention sweep': {
    summary: 'move recordings past their organization’s retention policy to the trash now (what the daily sweep does)',
    notes:
      'Without --org, every organization with a policy. Prints, per organization, the policy, the cutoff day, how many recordings it moved, how many it kept for a legal hold and how many changed while it ran. Its changes are the service’s (`recording.retention_expired`, then `recording.trashed`).',
    flags: { org: { placeholder: 'O', description: 'only this organization' } },
    run: async (flags, { db, trashRetentionDays }) => {
      const orgId = flags.org === undefined ? undefined : flag(Id, flags.org, 'org');
      return sweepRetention({ db, now, trashRetentionDays }, { orgId });
    },
  },
};
