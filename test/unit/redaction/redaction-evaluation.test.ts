import { evaluateRedaction, figuresTable, loadPiiTestSet } from '../../support/redaction-evaluation';

/**
 * The redactor's recall and precision per type on the labelled set (test/fixtures/redaction).
 * The floors guard against regressions; REDACTION_FIGURES=1 prints the table and every miss.
 */
describe('redaction on the labelled test set', () => {
  const { figures, misses } = evaluateRedaction(loadPiiTestSet());
  const of = (type: string) => figures.find((f) => f.type === type)!;

  it('has at least 15 labelled examples of every type', () => {
    for (const f of figures) expect([f.type, f.labelled >= 15]).toEqual([f.type, true]);
  });

  it('finds the checksum types almost always, and the others mostly', () => {
    if (process.env.REDACTION_FIGURES === '1') {
      console.log(`${figuresTable(figures)}\n\n${misses.map((m) => `${m.kind} ${m.type} "${m.text}" in "${m.example}"`).join('\n')}`);
    }
    for (const type of ['CREDIT_DEBIT_NUMBER', 'BANK_ROUTING', 'SSN']) expect([type, of(type).recall >= 0.9]).toEqual([type, true]);
    for (const f of figures) {
      expect([f.type, 'recall', f.recall >= (f.type === 'NAME' ? 0.8 : 0.85)]).toEqual([f.type, 'recall', true]);
      expect([f.type, 'precision', f.precision >= 0.9]).toEqual([f.type, 'precision', true]);
    }
  });
});
