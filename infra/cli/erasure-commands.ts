import * as v from 'valibot';
import { parseConfig } from '../../shared/config';
import { replayErasures } from '../../shared/domain/erasures/replay-erasures';
import { Timestamp } from '../../shared/schemas/common';
import { createTableContext } from '../../shared/storage/dynamo';
import { createRecordingObjects } from '../../shared/storage/recording-objects';
import { CliError } from './cli-error';
import { flag, type CommandSpec } from './command-line';
import type { CliTarget } from './target';

/** The recordings bucket the replay deletes from: the local emulator's, or BUCKET_NAME as the stack sets it. */
function bucketOf(target: CliTarget) {
  if (target.local)
    return createRecordingObjects({ bucket: target.local.bucketName, region: target.local.region, endpoint: target.local.s3Endpoint });
  const aws = parseConfig(process.env);
  if (!aws.bucket) throw new CliError('BUCKET_REQUIRED', "Set BUCKET_NAME to the stack's recordings bucket: the replay deletes files too.");
  return createRecordingObjects({ bucket: aws.bucket.name, endpoint: aws.bucket.endpoint, region: aws.region });
}

/** Erasures after a backup is restored (docs/governance.md, "Backups"). */
export const ERASURE_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'erasure replay': {
    summary: 'run again every erasure of the erasure log (since a time): after restoring the table from a backup',
    notes:
      "A restored table holds again the people erased after the backup's time. Restore, then run this with --since the backup's time, reading the log of the table in use before the restore (--log-table) when the restored table is a new one. Each erasure runs again as a new erasure of the same member, in this process, with no confirmation or refusal; it prints what each found again.",
    flags: {
      since: { placeholder: 'ISO', description: 'only erasures completed at or after this time (default: all of the log)' },
      'log-table': { placeholder: 'T', description: 'the table whose erasure log to read (default: the target table)' },
    },
    run: async (flags, target) => {
      const since = flag(v.optional(Timestamp), flags.since, 'since');
      const logTable = flag(v.optional(v.string()), flags['log-table'], 'log-table');
      const region = target.local?.region ?? parseConfig(process.env).region;
      const log = logTable ? createTableContext({ tableName: logTable, region, endpoint: target.local?.dynamoDbEndpoint }) : undefined;
      return replayErasures(
        { db: target.db, now: () => new Date(), objects: bucketOf(target), index: target.search },
        { since: since && new Date(since).toISOString(), log },
      );
    },
  },
};
