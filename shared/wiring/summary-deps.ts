import { config } from '../config';
import type { SummaryQueueDeps } from '../domain/summaries/queue-summary';
import type { SummaryRunDeps } from '../domain/summaries/run-summary';
import { newId } from '../ids';
import { countMetric } from '../observability/metrics';
import { table } from '../storage/dynamo';
import { bedrockModelIdFor } from '../summarization/model-map';
import { SummaryEngineError, type SummaryEngine } from '../summarization/summary-engine';

/**
 * The summaries' composition root (docs/summaries.md): what their routes and consumers hand
 * the domain, built on first use and kept for the warm function. Only the summary consumer
 * carries the engine's client.
 */

let queue: SummaryQueueDeps | undefined;
let run: SummaryRunDeps | undefined;

/** The table, the clock and new ids: the summary routes and the automatic summary. */
export function summaryDeps(): SummaryQueueDeps {
  return (queue ??= { db: table(), now: () => new Date(), newSummaryId: () => newId('sum') });
}

/**
 * TODO(lead, at the engines merge): the Bedrock engine (`bedrockSummaryEngine()`, the local
 * emulator under npm start and the tests) and config's BEDROCK_MODEL_MAP replace these two.
 * Until then a summary fails with MODEL_UNAVAILABLE rather than waiting for nothing.
 */
const unwiredEngine: SummaryEngine = {
  summarize: async () => {
    throw new SummaryEngineError('MODEL_UNAVAILABLE', 'no summary engine is wired in this build.');
  },
};
const MODEL_MAP: Record<string, string> = {};

/** The summary consumer: the table, the clock, the engine, the model map and the metrics. */
export function summaryRunDeps(): SummaryRunDeps {
  if (!run) {
    const { fallback } = config().models;
    run = { db: table(), now: () => new Date(), engine: unwiredEngine, modelIdFor: (selected) => bedrockModelIdFor(selected ?? fallback, MODEL_MAP, fallback), countMetric };
  }
  return run;
}
