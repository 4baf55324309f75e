import { config } from '../config';
import { takeQuestion, type AskAllowanceDeps } from '../domain/search/ask-allowance';
import type { IndexingDeps } from '../domain/search/index-recording';
import { extractiveAnswerer, type Answerer } from '../search/answerer';
import { bedrockAnswerer } from '../search/bedrock-answerer';
import type { OpenSearchIndex } from '../search/opensearch-index';
import { createBedrockRuntimeClient } from '../summarization/bedrock-client';
import { bedrockModelIdFor, LOCAL_SUMMARY_MODEL } from '../summarization/model-map';
import { searchNotEnabled } from '../domain/search/search-recordings';
import { searchIndex } from '../search/search-client';
import { table } from '../storage/dynamo';

/** The search's composition root (docs/search.md): the table, the collection's index and the clock. */

/** The indexer's, or undefined in a deployment without search (`-c search=off`), where it has nothing to do. */
export function indexingDeps(): IndexingDeps | undefined {
  const index = searchIndex();
  return index && { db: table(), index, now: () => new Date() };
}

/** Search and ask: refused with SEARCH_NOT_ENABLED where the deployment has no search. */
export function searchDeps(): { index: OpenSearchIndex } {
  const index = searchIndex();
  if (!index) throw searchNotEnabled();
  return { index };
}

let answerer: Answerer | undefined;
let allowance: AskAllowanceDeps | undefined;

/**
 * Ask: the index and the answerer, Converse with the fallback model's Bedrock model (the model
 * map summaries use); where that is the local engine (npm start), answers are extractive.
 */
export function askDeps(): { index: OpenSearchIndex; answerer: Answerer; takeQuestion: (orgId: string) => Promise<void> } {
  const deps = searchDeps();
  if (!answerer) {
    const { bedrock, models, region } = config();
    const modelId = bedrockModelIdFor(models.fallback, bedrock.modelMap, models.fallback);
    answerer =
      modelId === LOCAL_SUMMARY_MODEL
        ? extractiveAnswerer()
        : bedrockAnswerer(createBedrockRuntimeClient({ region, endpoint: bedrock.endpoint }), modelId);
  }
  allowance ??= { db: table(), now: () => new Date(), defaultPerDay: config().ask.dailyDefault };
  const counted = allowance;
  return { ...deps, answerer, takeQuestion: (orgId) => takeQuestion(counted, orgId) };
}
