import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRANSLATION_LANGUAGE_CODES } from '../../shared/core/translation-languages';
import { apertiumModeFor, apertiumTranslate, LOCAL_TRANSLATION_PACKAGES } from './apertium';
import type { Emulator } from './emulators';
import { freePort } from './emulators';

/**
 * A local stand-in of Amazon Translate's TranslateText for `npm start` and the tests: an HTTP
 * server speaking AWS JSON 1.1 (`X-Amz-Target: AWSShineFrontendService_20170701.TranslateText`),
 * so the real @aws-sdk/client-translate works against it with an endpoint (TRANSLATE_ENDPOINT).
 * Apertium translates (apertium.ts). It refuses what Translate refuses, in Translate's error
 * shape (`__type`, `Message`): a text over 10,000 bytes (TextSizeLimitExceededException), an
 * empty text or a code Translate does not know (InvalidRequestException), and a pair with no
 * installed Apertium mode (UnsupportedLanguagePairException), so an uninstalled pair fails
 * locally as an unsupported pair does in AWS. The same language on both sides answers the text
 * itself, as Translate does (without charge).
 */
export interface TranslateEmulatorOptions {
  host: string;
  /** The engine; tests replace it to answer without Apertium. */
  translate?: (from: string, to: string, text: string) => Promise<string | undefined>;
}

const TARGET = 'AWSShineFrontendService_20170701.TranslateText';
const MAX_BYTES = 10_000;
const KNOWN = new Set<string>(TRANSLATION_LANGUAGE_CODES);

/** An AWS JSON 1.1 error: the SDK reads the exception's name from `__type` and its fields from the body. */
class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Apertium, when a mode for the pair is installed; undefined otherwise. */
async function translateWithApertium(from: string, to: string, text: string): Promise<string | undefined> {
  const mode = await apertiumModeFor(from, to);
  return mode ? apertiumTranslate(mode, text) : undefined;
}

export async function startTranslateEmulator(options: TranslateEmulatorOptions): Promise<Emulator> {
  const engine = options.translate ?? translateWithApertium;

  const translateText = async (input: Record<string, unknown>) => {
    const text = input.Text;
    const from = input.SourceLanguageCode;
    const to = input.TargetLanguageCode;
    if (typeof text !== 'string' || typeof from !== 'string' || typeof to !== 'string') {
      throw new ServiceError('InvalidRequestException', 'Text, SourceLanguageCode and TargetLanguageCode are required.');
    }
    if (Buffer.byteLength(text, 'utf8') > MAX_BYTES)
      throw new ServiceError(
        'TextSizeLimitExceededException',
        `Input text size exceeds limit. Max length of request text allowed is ${MAX_BYTES} bytes.`,
      );
    if (!text.length) throw new ServiceError('InvalidRequestException', 'Text must not be empty.');
    if (from === 'auto')
      throw new ServiceError(
        'InvalidRequestException',
        'The local Translate stand-in does not detect languages: name the source language.',
      );
    for (const code of [from, to])
      if (!KNOWN.has(code)) throw new ServiceError('InvalidRequestException', `Unsupported language code: ${code.slice(0, 20)}.`);
    if (from === to) return { TranslatedText: text, SourceLanguageCode: from, TargetLanguageCode: to };
    const translated = await engine(from, to, text);
    if (translated === undefined) {
      throw new ServiceError(
        'UnsupportedLanguagePairException',
        `Unsupported language pair: ${from} to ${to}. The local stand-in (Apertium) has no mode for it; install its Debian pair (${LOCAL_TRANSLATION_PACKAGES.join(', ')} give en-es).`,
        {
          SourceLanguageCode: from,
          TargetLanguageCode: to,
        },
      );
    }
    return { TranslatedText: translated, SourceLanguageCode: from, TargetLanguageCode: to };
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const reply = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
        response.end(JSON.stringify(body));
      };
      const target = String(request.headers['x-amz-target'] ?? '');
      if (request.method !== 'POST' || target !== TARGET)
        return reply(400, {
          __type: 'UnknownOperationException',
          Message: `The local Translate stand-in does not do ${target || 'this request'}.`,
        });
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return reply(400, { __type: 'InvalidRequestException', Message: 'The request body is not JSON.' });
      }
      translateText(input).then(
        (body) => reply(200, body),
        (error: unknown) => {
          if (error instanceof ServiceError) return reply(400, { __type: error.type, Message: error.message, ...error.fields });
          reply(500, { __type: 'InternalServerException', Message: `The local engine failed: ${(error as Error).message}`.slice(0, 300) });
        },
      );
    });
  });
  const port = await freePort(options.host);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, options.host, resolve));
  return {
    endpoint: `http://${options.host}:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
