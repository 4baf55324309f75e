/**
 * Speech through the local engine, then redaction: the end-to-end check belongs with the
 * transcription finisher's tests (they run the engine); here it is only named, skipped.
 */
describe.skip('PII said aloud, transcribed by the local engine, then redacted', () => {
  it('redacts a card number and a name read by Flite', () => undefined);
});
