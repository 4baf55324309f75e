import { TranslateTextCommand } from '@aws-sdk/client-translate';
import { apertiumModeFor, apertiumTranslate, isLocalTranslationAvailable } from '../../../infra/local/apertium';
import type { Emulator } from '../../../infra/local/emulators';
import { startTranslateEmulator } from '../../../infra/local/translate-emulator';
import { createAmazonTranslator, createTranslateClient } from '../../../shared/translation/amazon-translator';
import { TranslationError } from '../../../shared/translation/translator';

/**
 * The local Amazon Translate stand-in driven by the real @aws-sdk/client-translate, through the
 * adapter the functions use, with Debian's Apertium (apertium-eng-spa installed here: `.ci/run`
 * installs it). Prints the local translation time of a 2-minute and a 30-minute transcript.
 */
let emulator: Emulator;
let client: ReturnType<typeof createTranslateClient>;

beforeAll(async () => {
  emulator = await startTranslateEmulator({ host: '127.0.0.1' });
  client = createTranslateClient({ region: 'us-east-1', endpoint: emulator.endpoint });
});
afterAll(async () => {
  client.destroy();
  await emulator.stop();
});

/** Sentences people say in meetings: turns of a realistic transcript, at 150 words a minute. */
const SENTENCES = [
  'The budget for the new office is approved.',
  'Maria will send the contract by Friday.',
  'We need to review the schedule before the next meeting.',
  'The team finished the report last week.',
  'I think the price is too high for this quarter.',
  'Can you call the client tomorrow morning?',
  'The new system works well in the test.',
  'We agreed to hire two engineers next month.',
];
function transcriptOf(minutes: number): string[] {
  const turns: string[] = [];
  let words = 0;
  for (let i = 0; words < minutes * 150; i++) {
    const turn = `${SENTENCES[i % SENTENCES.length]} ${SENTENCES[(i * 3 + 1) % SENTENCES.length]}`;
    turns.push(turn);
    words += turn.split(' ').length;
  }
  return turns;
}

describe('Apertium', () => {
  it('is installed with the English–Spanish pair, and maps ISO codes to its modes', async () => {
    await expect(isLocalTranslationAvailable()).resolves.toBe(true);
    await expect(apertiumModeFor('en', 'es')).resolves.toBe('eng-spa');
    await expect(apertiumModeFor('es-MX', 'en')).resolves.toBe('spa-eng');
    await expect(apertiumModeFor('en', 'ja')).resolves.toBeUndefined();
  });

  it('translates line by line, keeping the lines', async () => {
    const out = await apertiumTranslate('eng-spa', 'The budget for the new office is approved.\nMaria will send the contract by Friday.');
    expect(out.split('\n')).toEqual(['El presupuesto para la oficina nueva está aprobado.', expect.stringContaining('contrato')]);
  });
});

describe('the local Translate stand-in with the real client', () => {
  it('answers TranslateText in the service’s shape', async () => {
    const answer = await client.send(
      new TranslateTextCommand({ Text: 'The budget is approved.', SourceLanguageCode: 'en', TargetLanguageCode: 'es' }),
    );
    expect(answer).toMatchObject({ TranslatedText: 'El presupuesto está aprobado.', SourceLanguageCode: 'en', TargetLanguageCode: 'es' });
  });

  it('refuses a pair with no installed mode as an unsupported pair, which the adapter reads as final', async () => {
    const error = await client
      .send(new TranslateTextCommand({ Text: 'Hello.', SourceLanguageCode: 'en', TargetLanguageCode: 'fr' }))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'UnsupportedLanguagePairException', SourceLanguageCode: 'en', TargetLanguageCode: 'fr' });
    expect((error as Error).message).toMatch(/^Unsupported language pair: en to fr/);
    const refused = await createAmazonTranslator(client)
      .translate(['Hello.'], 'en', 'fr')
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TranslationError);
    expect(refused).toMatchObject({ code: 'UNSUPPORTED_LANGUAGE_PAIR' });
  });

  it('refuses what Translate refuses: over 10,000 bytes, an empty text, an unknown code', async () => {
    const send = (Text: string, TargetLanguageCode = 'es') =>
      client
        .send(new TranslateTextCommand({ Text, SourceLanguageCode: 'en', TargetLanguageCode }))
        .catch((e: unknown) => (e as Error).name);
    await expect(send('a'.repeat(10_001))).resolves.toBe('TextSizeLimitExceededException');
    await expect(send('')).resolves.toBe('InvalidRequestException');
    await expect(send('hi', 'xx')).resolves.toBe('InvalidRequestException');
  });

  it('translates a 2-minute and a 30-minute transcript through the adapter, one output per turn (timed)', async () => {
    const translator = createAmazonTranslator(client);
    for (const minutes of [2, 30]) {
      const turns = transcriptOf(minutes);
      const started = performance.now();
      const out = await translator.translate(turns, 'en', 'es');
      const seconds = (performance.now() - started) / 1000;
      expect(out).toHaveLength(turns.length);
      expect(out[0]).toBe('El presupuesto para la oficina nueva está aprobado. Maria enviará el contrato por viernes.');
      expect(out.every((text) => text.length > 0)).toBe(true);
      console.log(
        `Local translation (Apertium eng-spa via the stand-in): ${minutes}-minute transcript, ${turns.length} turns, ${Buffer.byteLength(turns.join('\n'))} bytes: ${seconds.toFixed(2)} s`,
      );
    }
  }, 120_000);
});
