import * as v from 'valibot';
import { rebuildSearchIndex, reindexEveryOrganization } from '../../shared/operator-tasks/search-rebuild';
import { reindexOrganization } from '../../shared/operator-tasks/search-reindex';
import { Id } from '../../shared/schemas/common';
import { CliError } from './cli-error';
import { flag, type CommandSpec } from './command-line';
import type { CliTarget } from './target';

const now = () => new Date();

function searchOf(search: CliTarget['search']): NonNullable<CliTarget['search']> {
  if (!search)
    throw new CliError(
      'SEARCH_NOT_ENABLED',
      'This deployment has no search: set SEARCH_ENDPOINT to the collection endpoint (search=opensearch).',
    );
  return search;
}

/** The search index's commands (docs/search.md): reindex from the table, rebuild beside the alias. */
export const SEARCH_COMMANDS: Record<string, CommandSpec<CliTarget>> = {
  'search reindex': {
    summary: 'make the search index hold every recording of an organization (or of every one) as the table holds it',
    notes:
      'For recordings from before search, or after the index was lost (docs/search.md). Safe while organizations change things: each recording is indexed from its current state, as the indexer does. Without --org it reads every organization (a Scan of the table).',
    flags: { org: { placeholder: 'O', description: 'the organization id (default: every organization)' } },
    run: (flags, { db, search }) => {
      const index = searchOf(search);
      const orgId = flag(v.optional(Id), flags.org, 'org');
      return orgId ? reindexOrganization({ db, index, now }, orgId) : reindexEveryOrganization({ db, index, now });
    },
  },
  'search rebuild': {
    summary: "build the index of this version's mapping beside the current one, then move the alias to it (no gap in answers)",
    notes:
      'Run once after deploying a version whose mapping changed, or after turning embeddings on (docs/search.md). Searches read the old index until the new one holds every recording; a minute passes first, so that running indexers write to both.',
    flags: { 'pause-seconds': { placeholder: 'S', description: 'seconds to wait before reindexing (default: 60, the indexer timeout)' } },
    run: (flags, { db, search }) => {
      const seconds = flag(
        v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/), v.transform(Number))),
        flags['pause-seconds'],
        'pause-seconds',
      );
      const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds === undefined ? ms : seconds * 1000));
      return rebuildSearchIndex({ db, index: searchOf(search), now, pause });
    },
  },
};
