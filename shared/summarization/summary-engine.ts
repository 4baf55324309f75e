import type { TranscriptSegment } from '../storage/recording-part-items';

/* Contract stub (plan-30, helper E's names): replaced by the engines branch. */

export interface SummarySection {
  title: string;
  prompt: string;
}
export interface SummaryRequest {
  modelId: string;
  template: { name: string; sections: SummarySection[] };
  language: string;
  instructions: string[];
  transcript: TranscriptSegment[];
  recordedAt: string;
}
export interface DraftActionItem {
  text: string;
  assignee: string | null;
  due_date: string | null;
  timestamp: number | null;
}
export interface SummaryDraft {
  sections: { title: string; markdown: string }[];
  markdown: string;
  action_items: DraftActionItem[];
  usage: { input_tokens: number; output_tokens: number };
  model: string;
  language: string;
}
export interface SummaryEngine {
  summarize(request: SummaryRequest): Promise<SummaryDraft>;
}
export type SummaryErrorCode = 'SUMMARY_THROTTLED' | 'SUMMARY_OUTPUT_INVALID' | 'MODEL_UNAVAILABLE' | 'SUMMARY_FAILED';
export class SummaryEngineError extends Error {
  constructor(
    readonly code: SummaryErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'SummaryEngineError';
  }
}
