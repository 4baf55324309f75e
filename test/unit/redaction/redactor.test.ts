import {
  expandEntityTypes,
  findPii,
  PII_ENTITY_TYPES,
  redactSegments,
  redactText,
  type PiiEntityType,
} from '../../../shared/redaction/redactor';
import { abaRoutingValid, luhnValid, ssnValid } from '../../../shared/redaction/checksums';

const ALL = PII_ENTITY_TYPES;
const typesIn = (text: string, language?: string) => findPii(text, ALL, { language }).map((span) => span.type);

describe('expandEntityTypes', () => {
  it('turns ALL into every type and keeps the order of PII_ENTITY_TYPES', () => {
    expect(expandEntityTypes(['ALL'])).toEqual([...PII_ENTITY_TYPES]);
    expect(expandEntityTypes(['SSN', 'NAME', 'SSN'])).toEqual(['NAME', 'SSN']);
    expect(expandEntityTypes([])).toEqual([]);
  });
});

describe('checksums', () => {
  it('Luhn, ABA and the SSN rules', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(abaRoutingValid('021000021')).toBe(true);
    expect(abaRoutingValid('021000022')).toBe(false);
    expect(ssnValid('123456789')).toBe(true);
    expect(['000123456', '666123456', '912345678', '123006789', '123450000'].map(ssnValid)).toEqual([false, false, false, false, false]);
  });
});

describe('findPii, one type at a time', () => {
  const cases: [PiiEntityType, string, string][] = [
    [
      'CREDIT_DEBIT_NUMBER',
      'my card number is four one one one one one one one one one one one one one one one',
      'my card number is [PII]',
    ],
    ['CREDIT_DEBIT_NUMBER', 'pay with 4111 1111 1111 1111.', 'pay with [PII].'],
    ['CREDIT_DEBIT_NUMBER', 'card four one one one 1111 1111 1111 okay', 'card [PII] okay'],
    ['CREDIT_DEBIT_CVV', 'the security code is one two three', 'the security code is [PII]'],
    ['CREDIT_DEBIT_EXPIRY', 'it expires twelve twenty seven', 'it expires [PII]'],
    ['CREDIT_DEBIT_EXPIRY', 'expiration december twenty twenty seven', 'expiration [PII]'],
    ['PIN', 'my pin number is four three two one', 'my pin number is [PII]'],
    ['BANK_ACCOUNT_NUMBER', 'my account number is one two three four five six seven eight', 'my account number is [PII]'],
    ['BANK_ACCOUNT_NUMBER', 'IBAN ES91 2100 0418 4502 0005 1332 please', 'IBAN [PII] please'],
    ['BANK_ROUTING', 'the routing number is oh two one oh oh oh oh two one', 'the routing number is [PII]'],
    ['SSN', 'my social security number is one two three four five six seven eight nine', 'my social security number is [PII]'],
    ['SSN', 'it was 219-09-9999 on the form', 'it was [PII] on the form'],
    ['PHONE', 'call me at five five five two three four five six seven eight', 'call me at [PII]'],
    ['PHONE', 'the number is (212) 555-0198.', 'the number is [PII].'],
    ['PHONE', 'dial one eight hundred five five five one two one two now', 'dial [PII] now'],
    ['EMAIL', 'email john dot smith at example dot com thanks', 'email [PII] thanks'],
    ['EMAIL', 'write to maria.lopez@gmail.com.', 'write to [PII].'],
    ['ADDRESS', 'i live at twelve main street apartment four b', 'i live at [PII]'],
    ['ADDRESS', 'ship it to 221 pine drive austin texas 78701', 'ship it to [PII]'],
    ['NAME', 'hi this is maria garcia calling', 'hi this is [PII] calling'],
    ['NAME', 'Please ask Sarah Johnson to call back.', 'Please ask [PII] to call back.'],
    ['NAME', 'my name is siobhan', 'my name is [PII]'],
  ];
  it.each(cases)('%s: %s', (type, text, redacted) => {
    expect(redactText(text, [type])).toBe(redacted);
    expect(findPii(text, ALL).map((span) => span.type)).toContain(type);
  });

  it('gives character offsets into the text', () => {
    const text = 'call 415 555 0132 now';
    expect(findPii(text, ['PHONE'])).toEqual([{ type: 'PHONE', start: 5, end: 17 }]);
  });
});

describe('what is not PII', () => {
  it('a 16-digit number that fails Luhn is not a card', () => {
    expect(typesIn('the card is 4111 1111 1111 1112')).toEqual([]);
    expect(typesIn('card number four one one one one one one one one one one one one one one two')).not.toContain('CREDIT_DEBIT_NUMBER');
  });
  it('a routing number that fails the ABA checksum is not one, nor an SSN with a bad area', () => {
    expect(typesIn('the routing number is 021000022')).toEqual([]);
    expect(typesIn('my social is 666-12-3456')).toEqual([]);
  });
  it('numbers, dates, prices and products', () => {
    for (const text of [
      'we shipped five hundred units of the iphone fifteen last march',
      'the meeting is at three thirty on tuesday',
      'order number 12345 ships tomorrow',
      'we met on 12/05/2024 to discuss the plan',
      'the invoice total was 1234.56',
      'the model three and the galaxy s twenty four sold well',
      'oh i see, that is fine',
      'meet me at the office',
    ])
      expect([text, typesIn(text)]).toEqual([text, []]);
  });
  it('a number with no context word stays: three digits are not a CVV, four not a PIN', () => {
    expect(typesIn('we hired one two three people and four three two one left')).toEqual([]);
  });
});

describe('languages', () => {
  it('Spanish number words, context and spoken email', () => {
    expect(redactText('mi teléfono es seis uno dos tres cuatro cinco seis siete ocho', ALL, { language: 'es-ES' })).toBe(
      'mi teléfono es [PII]',
    );
    expect(redactText('mi pin es uno dos tres cuatro', ALL, { language: 'es-US' })).toBe('mi pin es [PII]');
    expect(redactText('mi correo es maria punto lopez arroba gmail punto com', ALL, { language: 'es-US' })).toBe('mi correo es [PII]');
    expect(redactText('vivo en la calle mayor número doce', ALL, { language: 'es-ES' })).toBe('vivo en la [PII]');
  });
  it('other languages: digits and written emails only, no spoken forms, no NAME', () => {
    expect(redactText('ma carte est 4111 1111 1111 1111 et mon email paul.martin@orange.fr', ALL, { language: 'fr-FR' })).toBe(
      'ma carte est [PII] et mon email [PII]',
    );
    expect(typesIn('ma carte est quatre un un un', 'fr-FR')).toEqual([]);
    expect(typesIn('Je suis Sarah Johnson', 'fr-FR')).toEqual([]);
  });
});

describe('redactSegments', () => {
  it('redacts each turn, keeps its other fields and counts the entities by type', () => {
    const segments = [
      { speaker: 'Speaker 1', text: 'my name is john smith', start: 0, end: 2.5 },
      { speaker: 'Speaker 2', text: 'and your card number', start: 2.6, end: 4 },
      {
        speaker: 'Speaker 1',
        text: 'four one one one one one one one one one one one one one one one, pin four three two one',
        start: 4.1,
        end: 9,
      },
    ];
    const result = redactSegments(segments, ALL);
    expect(result.segments).toEqual([
      { speaker: 'Speaker 1', text: 'my name is [PII]', start: 0, end: 2.5 },
      { speaker: 'Speaker 2', text: 'and your card number', start: 2.6, end: 4 },
      { speaker: 'Speaker 1', text: '[PII], pin [PII]', start: 4.1, end: 9 },
    ]);
    expect(result.counts).toEqual({ NAME: 1, CREDIT_DEBIT_NUMBER: 1, PIN: 1 });
    expect(segments[0].text).toBe('my name is john smith');
  });
  it('redacts only the types asked for', () => {
    expect(redactSegments([{ text: 'my name is john, call me at 415 555 0132' }], ['PHONE']).segments[0].text).toBe(
      'my name is john, call me at [PII]',
    );
  });
});
