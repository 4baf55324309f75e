import { startBedrockEmulator } from '../../../infra/local/bedrock-emulator';
import { createBedrockRuntimeClient, createBedrockSummaryEngine } from '../../../shared/summarization/bedrock-summaries';
import { BUILT_IN_TEMPLATE } from '../../../shared/summarization/built-in-template';
import type { SummaryRequest } from '../../../shared/summarization/summary-engine';
import {
  estimateTokens,
  summaryToolOf,
  systemPromptOf,
  transcriptLinesOf,
  transcriptMessageOf,
} from '../../../shared/summarization/summary-prompts';
import { meetingTranscript } from '../../support/meeting-transcripts';

/**
 * The figures of docs/summaries.md: local summary times, and Bedrock tokens and cost per hour
 * of audio estimated from the prompt construction. List prices per million tokens, on demand,
 * us-east-1 (aws.amazon.com/bedrock/pricing as read on 2026-10-05; check the pricing page).
 */
const LIST_PRICES: Record<string, { input: number; output: number }> = {
  'us.amazon.nova-lite-v1:0': { input: 0.06, output: 0.24 },
  'us.amazon.nova-pro-v1:0': { input: 0.8, output: 3.2 },
  // Claude through a US geographic inference profile: the base $3 / $15 plus its 10% premium.
  'us.anthropic.claude-sonnet-4-5-20250929-v1:0': { input: 3.3, output: 16.5 },
};
/** What a model writes for four sections and a dozen action items (the answer is capped at 4,096). */
const ASSUMED_OUTPUT_TOKENS = 1_200;

const request = (minutes: number): SummaryRequest => ({
  modelId: 'local-extractive',
  template: BUILT_IN_TEMPLATE,
  language: 'English',
  instructions: ['Always list attendee names', 'Keep it short'],
  transcript: meetingTranscript(minutes),
  recordedAt: '2026-11-24T09:00:00Z',
});

describe('summary figures', () => {
  it('times the local engine on a 2-minute and a 30-minute transcript (the real client, the stand-in, wink-nlp)', async () => {
    const emulator = await startBedrockEmulator({ host: '127.0.0.1' });
    const client = createBedrockRuntimeClient({ region: 'us-east-1', endpoint: emulator.endpoint });
    try {
      const engine = createBedrockSummaryEngine(client);
      const timed = async (minutes: number, language = 'English') => {
        const started = process.hrtime.bigint();
        const draft = await engine.summarize({ ...request(minutes), language });
        return { draft, ms: Number(process.hrtime.bigint() - started) / 1e6 };
      };
      const cold = await timed(2);
      const short = await timed(2);
      const long = await timed(30);
      const spanish = await timed(30, 'Spanish');
      expect(long.draft.sections).toHaveLength(4);
      expect(long.draft.action_items.length).toBeGreaterThan(5);
      // Generous bounds: a shared 2-core machine; the figures printed are what counts.
      expect(long.ms).toBeLessThan(20_000);
      console.log(
        `Local summary: 2-minute transcript ${short.ms.toFixed(0)} ms (first call ${cold.ms.toFixed(0)} ms, wink-nlp's model loading); ` +
          `30-minute transcript (${request(30).transcript.length} segments) ${long.ms.toFixed(0)} ms, ${long.draft.action_items.length} action items; ` +
          `the same asked in Spanish ${spanish.ms.toFixed(0)} ms (written in ${spanish.draft.language}).`,
      );
    } finally {
      client.destroy();
      await emulator.stop();
    }
  });

  it('estimates Bedrock tokens and cost per hour of audio from the prompt construction', () => {
    const hour = request(60);
    const input =
      estimateTokens(systemPromptOf(hour, { kind: 'whole' })) +
      estimateTokens(transcriptMessageOf(transcriptLinesOf(hour.transcript))) +
      estimateTokens(JSON.stringify(summaryToolOf(hour.template, hour.language)));
    // An hour at 150 words a minute is 9,000 words: about 16,000 tokens with the line prefixes; one call, far below every default model's context.
    expect(input).toBeGreaterThan(12_000);
    expect(input).toBeLessThan(25_000);
    const costs = Object.entries(LIST_PRICES).map(
      ([model, price]) => `${model} $${((input * price.input + ASSUMED_OUTPUT_TOKENS * price.output) / 1e6).toFixed(4)}`,
    );
    console.log(
      `Bedrock per hour of audio: ${input} input tokens (estimated, 4 characters a token) + about ${ASSUMED_OUTPUT_TOKENS} output tokens; cost per summary at list prices: ${costs.join(', ')}.`,
    );
  });
});
