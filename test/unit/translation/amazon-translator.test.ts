import {
  InternalServerException,
  TooManyRequestsException,
  TranslateClient,
  TranslateTextCommand,
  UnsupportedLanguagePairException,
} from '@aws-sdk/client-translate';
import { mockClient } from 'aws-sdk-client-mock';
import { batchesOf, createAmazonTranslator, piecesOf, TRANSLATE_TEXT_MAX_BYTES } from '../../../shared/translation/amazon-translator';
import { TranslationError } from '../../../shared/translation/translator';

const translate = mockClient(TranslateClient);
const client = new TranslateClient({ region: 'eu-west-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
const meta = { $metadata: {} };

/** TranslateText's answer as recorded from the service: the text, the two codes, no terminology. */
const answer = (text: string, from = 'en', to = 'es') => ({
  TranslatedText: text,
  SourceLanguageCode: from,
  TargetLanguageCode: to,
  ...meta,
});
/** A stand-in translation that keeps every line break, as Translate does: each line upper-cased. */
const upperLines = () =>
  translate.on(TranslateTextCommand).callsFake((input: { Text: string }) =>
    answer(
      input.Text.split('\n')
        .map((line) => line.toUpperCase())
        .join('\n'),
    ),
  );
const sentTexts = () => translate.commandCalls(TranslateTextCommand).map((call) => call.args[0].input.Text ?? '');

beforeEach(() => translate.reset());
afterAll(() => client.destroy());

describe('the Amazon Translate adapter', () => {
  it('sends many texts in one request, one a line, and gives them back in order', async () => {
    upperLines();
    const translator = createAmazonTranslator(client);
    await expect(translator.translate(['hello there', 'the budget is approved', 'bye'], 'en', 'es')).resolves.toEqual([
      'HELLO THERE',
      'THE BUDGET IS APPROVED',
      'BYE',
    ]);
    expect(translate.commandCalls(TranslateTextCommand)).toHaveLength(1);
    expect(translate.commandCalls(TranslateTextCommand)[0].args[0].input).toEqual({
      Text: 'hello there\nthe budget is approved\nbye',
      SourceLanguageCode: 'en',
      TargetLanguageCode: 'es',
    });
  });

  it('keeps every request within 10,000 bytes of UTF-8, counting multi-byte characters', async () => {
    upperLines();
    const translator = createAmazonTranslator(client);
    // 400 turns of about 100 bytes each, with 2-byte characters: several requests.
    const texts = Array.from({ length: 400 }, (_, i) => `Turn ${i}: ${'ñ'.repeat(40)} end.`);
    const out = await translator.translate(texts, 'es', 'en');
    expect(out).toEqual(texts.map((text) => text.toUpperCase()));
    expect(sentTexts().length).toBeGreaterThan(1);
    for (const text of sentTexts()) expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(TRANSLATE_TEXT_MAX_BYTES);
  });

  it('cuts a text over the limit at sentence ends and joins the pieces back', async () => {
    upperLines();
    const translator = createAmazonTranslator(client, { maxBytes: 40 });
    const long = 'One short sentence. Another short one. And a third one here.';
    await expect(translator.translate([long, 'x'], 'en', 'es')).resolves.toEqual([
      'ONE SHORT SENTENCE. ANOTHER SHORT ONE. AND A THIRD ONE HERE.',
      'X',
    ]);
    for (const text of sentTexts()) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(40);
  });

  it('halves a batch whose answer lost or merged a line, so no text moves to another segment', async () => {
    // The service merges two lines when it sees them together, and answers single lines well.
    translate
      .on(TranslateTextCommand)
      .callsFake((input: { Text: string }) =>
        answer(input.Text.includes('\n') ? input.Text.replace('\n', ' ').toUpperCase() : input.Text.toUpperCase()),
      );
    const translator = createAmazonTranslator(client);
    await expect(translator.translate(['a', 'b', 'c', 'd'], 'en', 'es')).resolves.toEqual(['A', 'B', 'C', 'D']);
  });

  it('leaves empty texts empty without sending them, and folds a text’s own line breaks', async () => {
    upperLines();
    const translator = createAmazonTranslator(client);
    await expect(translator.translate(['', 'two\nlines', '  '], 'en', 'es')).resolves.toEqual(['', 'TWO LINES', '']);
    expect(sentTexts()).toEqual(['two lines']);
    translate.reset();
    await expect(translator.translate([], 'en', 'es')).resolves.toEqual([]);
    expect(sentTexts()).toEqual([]);
  });

  it('reads an unsupported pair as final, with the service’s reason', async () => {
    translate.on(TranslateTextCommand).rejects(
      new UnsupportedLanguagePairException({
        Message: 'Unsupported language pair: en to xx.',
        message: 'Unsupported language pair: en to xx.',
        SourceLanguageCode: 'en',
        TargetLanguageCode: 'xx',
        ...meta,
      }),
    );
    const error = await createAmazonTranslator(client)
      .translate(['hi'], 'en', 'xx')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranslationError);
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_LANGUAGE_PAIR',
      message: 'Unsupported language pair: en to xx.',
      retryAfterSeconds: undefined,
    });
  });

  it('reads throttling as retryable later, and lets other failures through for the queue to retry', async () => {
    translate.on(TranslateTextCommand).rejects(new TooManyRequestsException({ message: 'Rate exceeded', ...meta }));
    const throttled = await createAmazonTranslator(client)
      .translate(['hi'], 'en', 'es')
      .catch((e: unknown) => e);
    expect(throttled).toMatchObject({ code: 'TRANSLATION_THROTTLED', retryAfterSeconds: 30 });
    translate
      .reset()
      .on(TranslateTextCommand)
      .rejects(new InternalServerException({ message: 'internal', ...meta }));
    const internal = await createAmazonTranslator(client)
      .translate(['hi'], 'en', 'es')
      .catch((e: unknown) => e);
    expect(internal).not.toBeInstanceOf(TranslationError);
    expect((internal as Error).name).toBe('InternalServerException');
  });
});

describe('batching helpers', () => {
  it('batches consecutive texts under the byte limit, newline separators counted', () => {
    expect(batchesOf(['aaaa', 'bbbb', 'cccc'], 9)).toEqual([['aaaa', 'bbbb'], ['cccc']]);
    expect(batchesOf(['aaaa', 'bbbb', 'cccc'], 8)).toEqual([['aaaa'], ['bbbb'], ['cccc']]);
  });

  it('cuts a word longer than the limit by whole characters', () => {
    const pieces = piecesOf('é'.repeat(10), 5);
    expect(pieces.join('')).toBe('é'.repeat(10));
    for (const piece of pieces) expect(Buffer.byteLength(piece)).toBeLessThanOrEqual(5);
  });
});
