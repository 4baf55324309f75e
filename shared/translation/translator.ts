/**
 * A machine translator behind a small interface: the translation pipeline hands it the texts
 * of a transcript (and the latest summary's lines) and gets them back in the same order and
 * number. Amazon Translate in AWS (amazon-translator.ts); locally the same adapter talks to the
 * Apertium stand-in (infra/local/translate-emulator.ts, TRANSLATE_ENDPOINT); tests give it an
 * in-memory one.
 */
export interface Translator {
  /** `from` and `to` are Amazon Translate's language codes (ISO 639-1, or a variant such as `pt-PT`): one output per input, in order. */
  translate(texts: string[], from: string, to: string): Promise<string[]>;
}

export type TranslationErrorCode = 'UNSUPPORTED_LANGUAGE_PAIR' | 'TRANSLATION_THROTTLED' | 'TRANSLATION_FAILED';

/**
 * A translation the engine refused or could not do. `retryAfterSeconds` set means retryable
 * (throttling): the consumer asks for its message back that much later, never a hot loop.
 * The message is the engine's reason (never the text translated).
 */
export class TranslationError extends Error {
  override readonly name = 'TranslationError';
  constructor(
    readonly code: TranslationErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
