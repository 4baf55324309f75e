import { openSearchIndexOf } from '../../shared/search/search-client';
import type { OpenSearchIndex } from '../../shared/search/opensearch-index';
import { parseConfig, parseModelCatalog } from '../../shared/config';
import type { OrganizationLimits } from '../../shared/core/rate-limits';
import { createProfileCipher, kmsKeyring } from '../../shared/crypto/profile-cipher';
import type { SettingsFixtureDeps } from '../../shared/operator-tasks/ensure-member-settings';
import { localProfileCipher } from '../local/profile-key';
import { createTableContext, type TableContext } from '../../shared/storage/dynamo';
import { loadLocalConfig } from '../local/local-config';
import { readRuntimeFile, type LocalRuntime } from '../local/runtime-file';
import { CliError } from './cli-error';

/** Where the CLI acts: the running local deployment, or a deployed stack in AWS. */
export interface CliTarget {
  db: TableContext;
  /** Profile encryption for settings fixtures: the local key, or the stack's KMS key (PROFILE_KMS_KEY_ARN). */
  settings?: Omit<SettingsFixtureDeps, 'db'>;
  /** The limits of an organization without its own: the deployment's (local), or RATE_LIMIT_DEFAULT_* as the stack sets them (AWS). */
  limitDefaults: OrganizationLimits;
  /**
   * The trash's retention in days for the timers `seed` and `reindex` set: the deployment's
   * (local), or TRASH_RETENTION_DAYS as the stack sets it (AWS; default 30).
   */
  trashRetentionDays: number;
  /** Present for a local deployment: its emulators and identity provider. */
  local?: LocalRuntime & { dataDir: string };
  /** The search collection (`search reindex`): the local stand-in, or SEARCH_ENDPOINT (signed) in AWS; absent without search. */
  search?: OpenSearchIndex;
}

/**
 * With TABLE_NAME in the environment the CLI acts on that table in AWS (credentials from
 * the default chain); otherwise on the `npm start` deployment of LOCAL_DATA_DIR.
 */
export function resolveTarget(env: Record<string, string | undefined> = process.env): CliTarget {
  if (env.TABLE_NAME) {
    const aws = parseConfig(env);
    const keyArn = aws.profileKey?.kind === 'kms' ? aws.profileKey.keyArn : undefined;
    return {
      db: createTableContext({ tableName: aws.tableName, region: aws.region, endpoint: aws.dynamoDbEndpoint }),
      settings: keyArn ? { cipher: createProfileCipher(kmsKeyring(keyArn, aws.region)), models: aws.models } : undefined,
      limitDefaults: aws.rateLimits.defaults,
      trashRetentionDays: aws.events.trashRetentionDays,
      search: aws.search && openSearchIndexOf({ ...aws.search, region: aws.region }),
    };
  }
  const { dataDir } = loadLocalConfig(env);
  const runtime = readRuntimeFile(dataDir);
  if (!runtime) {
    throw new CliError(
      'LOCAL_NOT_RUNNING',
      `No local deployment runs on ${dataDir}: start one with \`npm start\`, or set TABLE_NAME (and AWS credentials) to act on a deployed stack.`,
    );
  }
  return {
    db: createTableContext({ tableName: runtime.tableName, region: runtime.region, endpoint: runtime.dynamoDbEndpoint }),
    settings: { cipher: localProfileCipher(dataDir), models: parseModelCatalog(env) },
    limitDefaults: runtime.rateLimitDefaults ?? parseConfig({ TABLE_NAME: runtime.tableName }).rateLimits.defaults,
    trashRetentionDays: runtime.trashRetentionDays ?? parseConfig({ TABLE_NAME: runtime.tableName }).events.trashRetentionDays,
    local: { ...runtime, dataDir },
    search: runtime.searchEndpoint
      ? openSearchIndexOf({ endpoint: runtime.searchEndpoint, signing: 'none', region: runtime.region })
      : undefined,
  };
}
