import { TranslateClient, TranslateTextCommand } from '@aws-sdk/client-translate';
import { config } from '../config';
import { traced } from '../observability/tracer';
import { TranslationError, type Translator } from './translator';

/**
 * Amazon Translate's TranslateText behind the Translator interface. TranslateText takes at most
 * 10,000 bytes of UTF-8 per request (Amazon Translate's "Guidelines and quotas"), so the texts
 * go in batches: as many whole texts as fit, one a line, and the answer is split on its line
 * breaks. Translate keeps line breaks, but nothing in its contract promises it: a batch whose
 * answer has another number of lines is halved and sent again, down to one text a request, so
 * texts never move to another segment. A text alone over the limit is cut at sentence (else
 * word) boundaries and its pieces' translations joined with a space.
 */
export const TRANSLATE_TEXT_MAX_BYTES = 10_000;

/** How long a throttled translation waits before the consumer tries it again. */
export const THROTTLED_RETRY_SECONDS = 30;

/** Requests sent at once: TranslateText's quota is per account; a few in parallel keep a long transcript short. */
const PARALLEL_REQUESTS = 3;

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

/** One line per text: a text's own line breaks (a transcript turn has none, a summary line neither) would break the batching. */
const oneLine = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');

/** Cuts a text over the limit at sentence ends, else at spaces, else anywhere (by characters, keeping whole code points). */
export function piecesOf(text: string, maxBytes = TRANSLATE_TEXT_MAX_BYTES): string[] {
  if (bytesOf(text) <= maxBytes) return [text];
  const pieces: string[] = [];
  let current = '';
  const units = text.match(/[^.!?]+[.!?]*\s*/g) ?? [text];
  const push = (unit: string) => {
    if (bytesOf(current + unit) <= maxBytes) {
      current += unit;
      return;
    }
    if (current) pieces.push(current.trim());
    current = '';
    if (bytesOf(unit) <= maxBytes) current = unit;
    else if (/\s/.test(unit.trim())) unit.split(/(?<=\s)/).forEach(push);
    else {
      for (const char of unit) {
        if (bytesOf(current + char) > maxBytes) {
          pieces.push(current);
          current = '';
        }
        current += char;
      }
    }
  };
  units.forEach(push);
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}

/** Consecutive texts joined by line breaks, each batch at most maxBytes. Every text must fit alone (piecesOf). */
export function batchesOf(texts: string[], maxBytes = TRANSLATE_TEXT_MAX_BYTES): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const text of texts) {
    const added = bytesOf(text) + (current.length ? 1 : 0);
    if (current.length && size + added > maxBytes) {
      batches.push(current);
      current = [];
      size = 0;
    }
    size += current.length ? bytesOf(text) + 1 : bytesOf(text);
    current.push(text);
  }
  if (current.length) batches.push(current);
  return batches;
}

/** The Translator over a TranslateClient (tests give it aws-sdk-client-mock's). */
export function createAmazonTranslator(client: TranslateClient, options: { maxBytes?: number } = {}): Translator {
  const maxBytes = options.maxBytes ?? TRANSLATE_TEXT_MAX_BYTES;

  const send = async (text: string, from: string, to: string): Promise<string> => {
    try {
      const { TranslatedText } = await client.send(
        new TranslateTextCommand({ Text: text, SourceLanguageCode: from, TargetLanguageCode: to }),
      );
      return TranslatedText ?? '';
    } catch (error) {
      throw translationErrorOf(error, from, to);
    }
  };

  /** Translates texts as one request, or halves until each answer has one line per text. */
  const translateBatch = async (batch: string[], from: string, to: string): Promise<string[]> => {
    const answer = await send(batch.join('\n'), from, to);
    if (batch.length === 1) return [oneLine(answer).trim()];
    const lines = answer.split(/\r?\n/);
    if (lines.length === batch.length) return lines.map((line) => line.trim());
    const half = Math.ceil(batch.length / 2);
    return [...(await translateBatch(batch.slice(0, half), from, to)), ...(await translateBatch(batch.slice(half), from, to))];
  };

  return {
    async translate(texts, from, to) {
      // Empty texts are not sent (TranslateText requires at least one character) and stay empty.
      const pieces: { index: number; text: string }[] = [];
      texts.forEach((text, index) => {
        const line = oneLine(text).trim();
        if (line) for (const piece of piecesOf(line, maxBytes)) pieces.push({ index, text: piece });
      });
      const batches = batchesOf(
        pieces.map((piece) => piece.text),
        maxBytes,
      );
      const answers = new Array<string[]>(batches.length);
      let next = 0;
      const worker = async () => {
        while (next < batches.length) {
          const mine = next++;
          answers[mine] = await translateBatch(batches[mine], from, to);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, batches.length) }, worker));
      const translated = answers.flat();
      const out = texts.map(() => [] as string[]);
      pieces.forEach((piece, position) => out[piece.index].push(translated[position]));
      return out.map((parts) => parts.join(' '));
    },
  };
}

/**
 * Translate's errors in the pipeline's words: a pair it does not translate is final, with its
 * reason; throttling is retryable later. The SDK has already retried throttling a few times
 * (its standard retry mode) before this sees it. Other errors (service unavailable, internal)
 * pass through: the consumer's queue tries the event again, and fails it on the last delivery.
 */
export function translationErrorOf(error: unknown, from: string, to: string): unknown {
  const name = (error as Error)?.name;
  const message = String(
    (error as { message?: string; Message?: string })?.message ?? (error as { Message?: string })?.Message ?? '',
  ).slice(0, 300);
  if (name === 'UnsupportedLanguagePairException') {
    return new TranslationError('UNSUPPORTED_LANGUAGE_PAIR', message || `Amazon Translate does not translate ${from} to ${to}.`);
  }
  if (name === 'TooManyRequestsException' || name === 'ThrottlingException' || name === 'LimitExceededException') {
    return new TranslationError('TRANSLATION_THROTTLED', message || 'Amazon Translate is throttling requests.', THROTTLED_RETRY_SECONDS);
  }
  if (
    name === 'InvalidRequestException' ||
    name === 'InvalidParameterValueException' ||
    name === 'TextSizeLimitExceededException' ||
    name === 'DetectedLanguageLowConfidenceException'
  ) {
    return new TranslationError('TRANSLATION_FAILED', `${name}: ${message}`.slice(0, 300));
  }
  return error;
}

/** A Translate client for this function's region (the local stand-in when configured). */
export function createTranslateClient(options: { region: string; endpoint?: string }): TranslateClient {
  return traced(
    new TranslateClient({
      region: options.region,
      endpoint: options.endpoint,
      ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
}

let shared: Translator | undefined;

/** The function's translator, from config, created once per module (cold start). */
export function amazonTranslator(): Translator {
  if (!shared) {
    const { region, translation } = config();
    shared = createAmazonTranslator(createTranslateClient({ region, endpoint: translation.endpoint }));
  }
  return shared;
}
