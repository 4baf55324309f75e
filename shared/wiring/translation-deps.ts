import type { TranslationRequestDeps } from '../domain/translations/translate-recording';
import type { TranslationRunDeps } from '../domain/translations/run-translation';
import { latestSummary } from '../domain/summaries/summary-reads';
import { table } from '../storage/dynamo';
import { amazonTranslator } from '../translation/amazon-translator';

/**
 * The translation's composition root (docs/translations.md): what its routes and its consumer
 * hand the domain, built on first use and kept for the warm function. Only the consumer's
 * carries the Translate client.
 */

let requests: TranslationRequestDeps | undefined;
let runs: TranslationRunDeps | undefined;

/** The table and the clock: Translate recording (both hosts). */
export function translationRequestDeps(): TranslationRequestDeps {
  return (requests ??= { db: table(), now: () => new Date() });
}

/** The translation consumer: Amazon Translate (the Apertium stand-in under npm start) and the latest summary. */
export function translationRunDeps(): TranslationRunDeps {
  const db = table();
  runs ??= {
    db,
    now: () => new Date(),
    translator: amazonTranslator(),
    latestSummary: (orgId, recordingId) => latestSummary(db, orgId, recordingId),
  };
  return runs;
}
