import type { TranscriptSegment } from '../storage/recording-part-items';

/**
 * What writes a summary: Amazon Bedrock in AWS (bedrock-summaries.ts), the same adapter against
 * the local stand-in (infra/local/bedrock-emulator.ts) under npm start and the tests, and
 * in-memory fakes in domain tests. The domain gives it everything it needs and stores what it
 * answers; it reads no table and no config itself.
 */
export interface SummarySection {
  title: string;
  prompt: string;
}

export interface SummaryRequest {
  /** The Bedrock model id or inference profile to invoke ('local-extractive' for the local engine). */
  modelId: string;
  template: { name: string; sections: SummarySection[] };
  /** The output language: a display name from CONVERSATION_LANGUAGES ('English', 'Spanish', …). */
  language: string;
  /** The recorder's standing preferences (summary_enhance and manual entries), in order. */
  instructions: string[];
  transcript: TranscriptSegment[];
  /** ISO timestamp of the recording: relative due dates ("by Friday") resolve against its day. */
  recordedAt: string;
}

export interface DraftActionItem {
  text: string;
  /** The name the model heard ("Maria"); the domain matches it to a member (assignees.ts). */
  assignee: string | null;
  /** YYYY-MM-DD. */
  due_date: string | null;
  /** Seconds into the recording where it was said. */
  timestamp: number | null;
}

export interface SummaryDraft {
  /** Exactly the template's sections, in its order, titled as in it. */
  sections: { title: string; markdown: string }[];
  /** The whole summary: `## <title>` and each section's markdown, joined (summaryMarkdownOf). */
  markdown: string;
  action_items: DraftActionItem[];
  /** The sum over every model call the summary took (chunks, combination, the retry of a malformed answer). */
  usage: { input_tokens: number; output_tokens: number };
  /** The model id invoked. */
  model: string;
  /** The language it is written in (display name). */
  language: string;
}

export interface SummaryEngine {
  summarize(request: SummaryRequest): Promise<SummaryDraft>;
}

export type SummaryErrorCode = 'SUMMARY_THROTTLED' | 'SUMMARY_OUTPUT_INVALID' | 'MODEL_UNAVAILABLE' | 'SUMMARY_FAILED';

/**
 * A summary that could not be written. `retryAfterSeconds` set means the cause is passing
 * (throttling, a model still loading, a service hiccup): the consumer puts the message back on
 * its queue with that delay instead of failing the summary. Messages never hold transcript text.
 */
export class SummaryEngineError extends Error {
  override readonly name = 'SummaryEngineError';
  constructor(
    readonly code: SummaryErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
