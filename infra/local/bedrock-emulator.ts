import { randomUUID } from 'node:crypto';
import { createServer, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { LOCAL_SUMMARY_MODEL } from '../../shared/summarization/model-map';
import type { DraftActionItem, SummarySection } from '../../shared/summarization/summary-engine';
import { CHARACTERS_PER_TOKEN, SUMMARY_TOOL_NAME } from '../../shared/summarization/summary-prompts';
import { freePort, type Emulator } from './emulators';
import { localOutputLanguage, summarizeLocally, type LocalLine, type LocalSummary } from './local-summarizer';

/**
 * A local stand-in of Amazon Bedrock Runtime's Converse operation for `npm start` and the tests:
 * an HTTP server speaking its REST JSON protocol (`POST /model/{modelId}/converse`), so the real
 * @aws-sdk/client-bedrock-runtime and the same adapter (shared/summarization/bedrock-summaries.ts)
 * run against it with an endpoint (BEDROCK_ENDPOINT). It knows one model, `local-extractive`:
 * it reads the template's sections from the summary tool's schema (titles, prompts as
 * descriptions), the language and the recording's day from the system prompt, the transcript (or
 * the parts' notes) from the user message, runs the local summarizer and answers with the tool
 * call. Tokens are counted as characters / 4, the estimate the adapter plans chunks with.
 * Errors have Bedrock's shape (status, `x-amzn-errortype`, `{message}`). It speaks HTTP/2 without
 * TLS (h2c), as the client's default handler for Bedrock Runtime does with an http:// endpoint.
 */
export interface BedrockEmulatorOptions {
  host: string;
}

class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface ConverseBody {
  system?: { text?: string }[];
  messages?: { role?: string; content?: { text?: string }[] }[];
  toolConfig?: {
    tools?: { toolSpec?: { name?: string; inputSchema?: { json?: ToolSchema } } }[];
    toolChoice?: { tool?: { name?: string } };
  };
}
interface ToolSchema {
  properties?: {
    language?: { enum?: string[] };
    sections?: { prefixItems?: { description?: string; properties?: { title?: { const?: string } } }[] };
  };
}

const CONVERSE = /^\/model\/([^/]+)\/converse$/;
const LINE = /^\[(\d+):(\d{2}):(\d{2})\] ([^:]*): (.*)$/;

/** The local summarizer's answer to one Converse request. */
export async function converseLocally(modelId: string, body: ConverseBody): Promise<Record<string, unknown>> {
  const started = Date.now();
  if (modelId !== LOCAL_SUMMARY_MODEL)
    throw new ServiceError(
      400,
      'ValidationException',
      `The provided model identifier is invalid. The local stand-in runs ${LOCAL_SUMMARY_MODEL} only.`,
    );
  const tool = body.toolConfig?.tools?.find((entry) => entry.toolSpec?.name === SUMMARY_TOOL_NAME)?.toolSpec;
  if (!tool || body.toolConfig?.toolChoice?.tool?.name !== SUMMARY_TOOL_NAME) {
    throw new ServiceError(
      400,
      'ValidationException',
      `The local stand-in only answers requests that force the tool ${SUMMARY_TOOL_NAME}.`,
    );
  }
  const schema = tool.inputSchema?.json ?? {};
  const sections: SummarySection[] = (schema.properties?.sections?.prefixItems ?? []).map((item) => ({
    title: item.properties?.title?.const ?? '',
    prompt: item.description ?? '',
  }));
  const system = (body.system ?? []).map((block) => block.text ?? '').join('\n');
  const user = (body.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) => (message.content ?? []).map((block) => block.text ?? ''))
    .join('\n');
  const language = schema.properties?.language?.enum?.[0] ?? /^Write the summary in (.+)\.$/m.exec(system)?.[1] ?? 'English';
  const day = /The recording was made on (\d{4}-\d{2}-\d{2})/.exec(system)?.[1] ?? new Date().toISOString().slice(0, 10);

  const notes = /<notes>\n([\s\S]*)\n<\/notes>/.exec(user);
  const summary = notes
    ? combined(notes[1], sections, await localOutputLanguage(language))
    : await summarizeLocally({ sections, language, day, lines: linesOf(user) });
  const input = { language: summary.language, sections: summary.sections, action_items: summary.action_items };
  const inputTokens = Math.ceil((system.length + user.length + JSON.stringify(body.toolConfig).length) / CHARACTERS_PER_TOKEN);
  const outputTokens = Math.ceil(JSON.stringify(input).length / CHARACTERS_PER_TOKEN);
  return {
    output: {
      message: {
        role: 'assistant',
        content: [{ toolUse: { toolUseId: `tooluse_${randomUUID().replace(/-/g, '').slice(0, 22)}`, name: SUMMARY_TOOL_NAME, input } }],
      },
    },
    stopReason: 'tool_use',
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    metrics: { latencyMs: Date.now() - started },
  };
}

/** The transcript's lines back from `[hh:mm:ss] Speaker: text`. */
function linesOf(user: string): LocalLine[] {
  const transcript = /<transcript>\n?([\s\S]*?)\n?<\/transcript>/.exec(user)?.[1] ?? '';
  return transcript.split('\n').flatMap((line) => {
    const match = LINE.exec(line);
    return match ? [{ start: Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]), speaker: match[4], text: match[5] }] : [];
  });
}

/**
 * The parts' notes (written in `language`, as the parts were) combined: each section's lines in part order
 * without repeats (8 at most), each action item once.
 */
function combined(notes: string, sections: SummarySection[], language: string): LocalSummary {
  const parts = notes
    .split('\n')
    .map((line) => JSON.parse(line) as { sections?: { title: string; markdown: string }[]; action_items?: DraftActionItem[] })
    .filter((part) => Array.isArray(part.sections));
  const items = new Map<string, DraftActionItem>();
  for (const part of parts) for (const item of part.action_items ?? []) items.set(`${item.text}|${item.assignee}`, item);
  return {
    language,
    sections: sections.map((section, index) => {
      const lines = [
        ...new Set(parts.flatMap((part) => (part.sections![index]?.markdown ?? '').split('\n')).filter((line) => line.trim())),
      ];
      return { title: section.title, markdown: lines.slice(0, 8).join('\n') };
    }),
    action_items: [...items.values()],
  };
}

export async function startBedrockEmulator(options: BedrockEmulatorOptions): Promise<Emulator> {
  const sessions = new Set<Http2Session>();
  const server = createServer((request: Http2ServerRequest, response: Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, body: unknown, errorType?: string) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'x-amzn-requestid': randomUUID(),
          ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
        });
        response.end(JSON.stringify(body));
      };
      const route = CONVERSE.exec(new URL(request.url ?? '/', 'http://local').pathname);
      if (request.method !== 'POST' || !route)
        return reply(
          404,
          { message: `The local Bedrock stand-in does not do ${request.method} ${request.url}.` },
          'UnknownOperationException',
        );
      let body: ConverseBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as ConverseBody;
      } catch {
        return reply(400, { message: 'The request body is not JSON.' }, 'ValidationException');
      }
      converseLocally(decodeURIComponent(route[1]), body).then(
        (answer) => reply(200, answer),
        (error: unknown) => {
          if (error instanceof ServiceError) return reply(error.status, { message: error.message }, error.type);
          // The engine's own trouble (Apertium failing, say): Bedrock's internal error, which callers retry.
          console.error('local Bedrock: the summary failed', (error as Error).message);
          reply(500, { message: 'The local summary engine failed.' }, 'InternalServerException');
        },
      );
    });
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  const port = await freePort(options.host);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, options.host, resolve));
  return {
    endpoint: `http://${options.host}:${(server.address() as AddressInfo).port}`,
    async stop() {
      // The client keeps its HTTP/2 session open: closing the server waits for it otherwise.
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** BEDROCK_MODEL_MAP for npm start and the tests: every active model writes with the local engine. */
export function localBedrockModelMap(activeModelIds: string[]): string {
  return activeModelIds.map((id) => `${id}=${LOCAL_SUMMARY_MODEL}`).join(',');
}
