import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandOutput } from '@aws-sdk/client-bedrock-runtime';
import { config } from '../config';
import { createBedrockRuntimeClient } from './bedrock-client';
import { LOCAL_SUMMARY_MODEL } from './model-map';

export { createBedrockRuntimeClient } from './bedrock-client';
import { parseSummaryOutput, summaryMarkdownOf, type SummaryOutput } from './summary-output';
import { SummaryEngineError, type SummaryDraft, type SummaryEngine, type SummaryRequest } from './summary-engine';
import {
  estimateTokens,
  notesMessageOf,
  SUMMARY_TOOL_NAME,
  summaryToolOf,
  systemPromptOf,
  transcriptLinesOf,
  transcriptMessageOf,
  type PartNotes,
  type SummaryPass,
} from './summary-prompts';

/**
 * Summaries by Amazon Bedrock's Converse API (docs/summaries.md): one call with the instructions
 * in `system`, the transcript as data in the user message, and the answer forced through the
 * summary tool and validated; a transcript longer than the model's context is summarized part by
 * part, then the parts' notes are combined by a last call.
 */

/** Context windows in tokens (the models' cards); an unknown model gets a small, safe one. */
export const MODEL_CONTEXT_TOKENS: [RegExp, number][] = [
  [/amazon\.nova-micro/, 128_000],
  [/amazon\.nova-(lite|pro)/, 300_000],
  [/amazon\.nova-premier/, 1_000_000],
  [/anthropic\.claude/, 200_000],
  [new RegExp(`^${LOCAL_SUMMARY_MODEL}$`), 1_000_000],
];
export const UNKNOWN_MODEL_CONTEXT_TOKENS = 32_000;

export function contextTokensOf(modelId: string): number {
  return MODEL_CONTEXT_TOKENS.find(([pattern]) => pattern.test(modelId))?.[1] ?? UNKNOWN_MODEL_CONTEXT_TOKENS;
}

/**
 * The share of the context left for the transcript after the answer and the instructions: the
 * 4-characters-a-token estimate undercounts some text (digits, names, scripts other than Latin).
 */
const CONTEXT_SAFETY = 0.75;

export interface BedrockSummaryOptions {
  contextTokensFor?: (modelId: string) => number;
  /** The answer's budget (inferenceConfig.maxTokens): a summary and its action items. */
  maxOutputTokens?: number;
  /** How long a throttled summary waits before its retry (the SDK has already retried quickly). */
  throttledRetryAfterSeconds?: number;
}

const THROTTLED = new Set([
  'ThrottlingException',
  'ServiceUnavailableException',
  'ModelNotReadyException',
  'ServiceQuotaExceededException',
]);
const PASSING = new Set(['InternalServerException', 'ModelTimeoutException', 'ModelErrorException']);
const MODEL_REFUSED = new Set(['AccessDeniedException', 'ResourceNotFoundException', 'ValidationException']);
/** Bedrock's words when the prompt exceeds the model's context ("Input is too long for requested model."). */
const TOO_LONG = /too long|too many (input )?tokens|exceeds? the (maximum|context)|context (length|window)/i;

/** The prompt was longer than the model takes: the estimate undercounted this text. */
class InputTooLongError extends Error {}

interface CallResult {
  output: SummaryOutput;
  usage: { input_tokens: number; output_tokens: number };
}

export function createBedrockSummaryEngine(client: BedrockRuntimeClient, options: BedrockSummaryOptions = {}): SummaryEngine {
  const maxOutputTokens = options.maxOutputTokens ?? 4096;
  const retryAfterSeconds = options.throttledRetryAfterSeconds ?? 30;
  const contextTokensFor = options.contextTokensFor ?? contextTokensOf;

  const send = async (request: SummaryRequest, system: string, userText: string): Promise<ConverseCommandOutput> => {
    try {
      return await client.send(
        new ConverseCommand({
          modelId: request.modelId,
          system: [{ text: system }],
          messages: [{ role: 'user', content: [{ text: userText }] }],
          toolConfig: { tools: [summaryToolOf(request.template, request.language)], toolChoice: { tool: { name: SUMMARY_TOOL_NAME } } },
          inferenceConfig: { maxTokens: maxOutputTokens, temperature: 0 },
        }),
      );
    } catch (error) {
      const name = (error as Error).name;
      // Bedrock's messages name the model and the limit, never the prompt; kept short anyway.
      const reason = String((error as Error).message ?? '').slice(0, 300);
      if (THROTTLED.has(name))
        throw new SummaryEngineError(
          'SUMMARY_THROTTLED',
          `Bedrock is busy (${name}): ${reason}`,
          name === 'ServiceQuotaExceededException' ? retryAfterSeconds * 10 : retryAfterSeconds,
        );
      if (PASSING.has(name)) throw new SummaryEngineError('SUMMARY_FAILED', `Bedrock failed (${name}): ${reason}`, retryAfterSeconds);
      if (name === 'ValidationException' && TOO_LONG.test(reason)) throw new InputTooLongError(reason);
      if (MODEL_REFUSED.has(name))
        throw new SummaryEngineError('MODEL_UNAVAILABLE', `The model ${request.modelId} cannot be used (${name}): ${reason}`);
      throw error;
    }
  };

  /** One call; a malformed answer is asked for once more, then refused. */
  const call = async (request: SummaryRequest, pass: SummaryPass, userText: string): Promise<CallResult> => {
    const system = systemPromptOf(request, pass);
    const languages =
      request.modelId === LOCAL_SUMMARY_MODEL && request.language !== 'English' ? [request.language, 'English'] : [request.language];
    const usage = { input_tokens: 0, output_tokens: 0 };
    let problem = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      const response = await send(request, system, userText);
      usage.input_tokens += response.usage?.inputTokens ?? 0;
      usage.output_tokens += response.usage?.outputTokens ?? 0;
      if (response.stopReason === 'guardrail_intervened' || response.stopReason === 'content_filtered') {
        throw new SummaryEngineError('SUMMARY_FAILED', `Bedrock withheld the answer (${response.stopReason}).`);
      }
      const toolUse = response.output?.message?.content?.find((block) => block.toolUse?.name === SUMMARY_TOOL_NAME)?.toolUse;
      if (!toolUse) {
        problem = `the model did not call ${SUMMARY_TOOL_NAME} (stop reason ${response.stopReason ?? 'none'})`;
        continue;
      }
      const parsed = parseSummaryOutput(toolUse.input, { sections: request.template.sections, languages });
      if ('output' in parsed) return { output: parsed.output, usage };
      problem = parsed.problem;
    }
    throw new SummaryEngineError('SUMMARY_OUTPUT_INVALID', `The model's answer was refused twice: ${problem}.`);
  };

  return {
    async summarize(request) {
      // The longest instructions of the passes (combining names the part count) and the tool.
      const promptTokens = estimateTokens(
        systemPromptOf(request, { kind: 'combine', count: 999 }) + JSON.stringify(summaryToolOf(request.template, request.language)),
      );
      let budget = Math.floor((contextTokensFor(request.modelId) - maxOutputTokens - promptTokens) * CONTEXT_SAFETY);
      const usage = { input_tokens: 0, output_tokens: 0 };
      // Text the estimate undercounts (a script of one token a character) can still be too long: smaller parts, twice at most.
      for (let tries = 1; ; tries++) {
        if (budget < MIN_BUDGET_TOKENS)
          throw new SummaryEngineError(
            'MODEL_UNAVAILABLE',
            `The model ${request.modelId} has too small a context for this template and transcript.`,
          );
        try {
          return await summarizeWithin(request, budget, usage);
        } catch (error) {
          if (!(error instanceof InputTooLongError)) throw error;
          if (tries === 3)
            throw new SummaryEngineError(
              'MODEL_UNAVAILABLE',
              `The model ${request.modelId} refused the transcript as too long even in small parts: ${error.message}`,
            );
          budget = Math.floor(budget / 3);
        }
      }
    },
  };

  async function summarizeWithin(
    request: SummaryRequest,
    budget: number,
    usage: { input_tokens: number; output_tokens: number },
  ): Promise<SummaryDraft> {
    const counted = (result: CallResult) => {
      usage.input_tokens += result.usage.input_tokens;
      usage.output_tokens += result.usage.output_tokens;
      return result.output;
    };

    const parts = partsOf(transcriptLinesOf(request.transcript), budget);
    let output: SummaryOutput;
    if (parts.length === 1) {
      output = counted(await call(request, { kind: 'whole' }, transcriptMessageOf(parts[0])));
    } else {
      // One part after the other: the account's tokens-per-minute quota is shared.
      let notes: PartNotes[] = [];
      for (const [index, lines] of parts.entries()) {
        notes.push(
          notesOf(counted(await call(request, { kind: 'part', index: index + 1, count: parts.length }, transcriptMessageOf(lines)))),
        );
      }
      // Notes too long for one call are combined in groups first, until they fit.
      while (notes.length > 1 && estimateTokens(notesMessageOf(notes)) > budget) {
        const groups = groupsOf(notes, budget);
        if (groups.length === notes.length) break;
        const combined: PartNotes[] = [];
        for (const group of groups)
          combined.push(
            group.length === 1
              ? group[0]
              : notesOf(counted(await call(request, { kind: 'combine', count: group.length }, notesMessageOf(group)))),
          );
        notes = combined;
      }
      output = counted(await call(request, { kind: 'combine', count: notes.length }, notesMessageOf(notes)));
    }
    return {
      sections: output.sections,
      markdown: summaryMarkdownOf(output.sections),
      action_items: output.action_items,
      usage: { ...usage },
      model: request.modelId,
      language: output.language,
    };
  }
}

/** Below this, parts would be a few lines each: the model's context is too small to be of use. */
const MIN_BUDGET_TOKENS = 200;

const notesOf = (output: SummaryOutput): PartNotes => ({ sections: output.sections, action_items: output.action_items });

/** The transcript's lines in consecutive parts of at most `budget` estimated tokens (a line longer than that is cut). */
export function partsOf(lines: string[], budget: number): string[][] {
  const parts: string[][] = [[]];
  let size = 0;
  const maxCharacters = budget * 4;
  for (const whole of lines) {
    for (let start = 0; start < Math.max(whole.length, 1); start += maxCharacters) {
      const line = whole.slice(start, start + maxCharacters);
      const tokens = estimateTokens(line) + 1;
      if (size + tokens > budget && parts[parts.length - 1].length) {
        parts.push([]);
        size = 0;
      }
      parts[parts.length - 1].push(line);
      size += tokens;
    }
  }
  return parts;
}

function groupsOf(notes: PartNotes[], budget: number): PartNotes[][] {
  const groups: PartNotes[][] = [[]];
  for (const note of notes) {
    const current = groups[groups.length - 1];
    if (current.length && estimateTokens(notesMessageOf([...current, note])) > budget) groups.push([note]);
    else current.push(note);
  }
  return groups;
}

let shared: SummaryEngine | undefined;

/** The function's summary engine, from config, created once per module (cold start). */
export function bedrockSummaryEngine(): SummaryEngine {
  if (!shared) {
    const { region, bedrock } = config();
    shared = createBedrockSummaryEngine(createBedrockRuntimeClient({ region, endpoint: bedrock.endpoint }));
  }
  return shared;
}
