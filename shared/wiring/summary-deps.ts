import { config } from '../config';
import type { SummaryQueueDeps } from '../domain/summaries/create-summary';
import type { SummaryRunDeps } from '../domain/summaries/run-summary';
import { newId } from '../ids';
import { countMetric } from '../observability/metrics';
import { table } from '../storage/dynamo';
import { bedrockModelIdFor } from '../summarization/model-map';
import { bedrockSummaryEngine } from '../summarization/bedrock-summaries';

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
 * The summary consumer: the table, the clock, the engine (Amazon Bedrock; its local stand-in under npm
 * start), the model map (BEDROCK_MODEL_MAP) and the metrics.
 */
export function summaryRunDeps(): SummaryRunDeps {
  if (!run) {
    const { fallback } = config().models;
    const { modelMap } = config().bedrock;
    run = {
      db: table(),
      now: () => new Date(),
      engine: bedrockSummaryEngine(),
      modelIdFor: (selected) => bedrockModelIdFor(selected ?? fallback, modelMap, fallback),
      countMetric,
    };
  }
  return run;
}
