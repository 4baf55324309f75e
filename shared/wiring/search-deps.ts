import { config } from '../config';
import type { IndexingDeps } from '../domain/search/index-recording';
import { extractiveAnswerer, type Answerer } from '../search/answerer';
import { searchNotEnabled } from '../domain/search/search-recordings';
import { searchIndex } from '../search/search-client';
import { table } from '../storage/dynamo';

/** The search's composition root (docs/search.md): the table, the collection's index and the clock. */

/** The indexer: it runs only where the stack deploys search, so a missing index is a misconfiguration. */
export function indexingDeps(): IndexingDeps {
  const index = searchIndex();
  if (!index) throw new Error('SEARCH_ENDPOINT is not set: the indexer runs only in deployments with search');
  return { db: table(), index, now: () => new Date() };
}

/** Search and ask: refused with SEARCH_NOT_ENABLED where the deployment has no search. */
export function searchDeps() {
  const index = searchIndex();
  if (!index) throw searchNotEnabled();
  return { index };
}

/**
 * Ask: the index and the answerer. Under npm start (a local Bedrock stand-in) answers are
 * extractive; in AWS, Bedrock's Converse writes them (not built yet: extractive there too).
 */
export function askDeps(): { index: NonNullable<ReturnType<typeof searchIndex>>; answerer: Answerer } {
  const answerer: Answerer = config().bedrock.endpoint ? extractiveAnswerer() : extractiveAnswerer();
  return { ...searchDeps(), answerer };
}
