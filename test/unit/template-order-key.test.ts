import fc from 'fast-check';
import * as v from 'valibot';
import { CreateTemplateBody, TEMPLATE_LIMITS } from '../../shared/schemas/templates';
import { templateOrderKey } from '../../shared/storage/keys';

/**
 * The templates' order keys (GSI1, GSI3) must sort, as DynamoDB sorts them (UTF-8 bytes),
 * exactly as List templates orders templates: lower-case names as JavaScript compares them
 * (UTF-16 code units), then ids. Names are drawn from every code unit a name may hold (lone
 * surrogates, U+E000–U+FFFF and astral characters, which UTF-8 and UTF-16 order differently;
 * tab, line feed; 'İ', which lower-cases to two units), as prefixes of each other.
 */
const byName = (a: { name: string; id: string }, b: { name: string; id: string }) => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
};
const byBytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));

/** Code units a name may hold: no C0 control but tab, line feed and carriage return (CreateTemplateBody), no NUL. */
const nameUnit = fc
  .oneof(
    fc.constantFrom(
      'a',
      'A',
      'b',
      ' ',
      '!',
      '#',
      '\t',
      '\n',
      'İ',
      'ß',
      'é',
      'É',
      '\ud800',
      '\udfff',
      '\ue000',
      '\uff01',
      '\uffff',
      '😀',
      '𝔸',
    ),
    fc.integer({ min: 0x20, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  )
  .filter((unit) => v.safeParse(CreateTemplateBody.entries.name, `x${unit}`).success);
const name = fc.array(nameUnit, { maxLength: 6 }).map((units) => units.join(''));
const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/);

describe('templateOrderKey', () => {
  it('sorts as List templates orders: by lower-case name (a name before the names it begins), then id', () => {
    fc.assert(
      fc.property(name, id, name, id, fc.boolean(), (nameA, idA, suffix, idB, extend) => {
        const a = { name: nameA, id: idA };
        // Half the time the second name begins with the first: the case '#' sorted wrong.
        const b = { name: extend ? `${nameA}${suffix}` : suffix, id: idB };
        expect(byBytes(templateOrderKey(a.name, a.id), templateOrderKey(b.name, b.id))).toBe(byName(a, b));
      }),
      { numRuns: 5_000 },
    );
  });

  it('keeps ASCII names readable and the largest name under the 1,024 bytes of a sort key', () => {
    expect(templateOrderKey('Sales Call', 'tpl_1')).toBe('sales call\u0001tpl_1');
    for (const unit of ['\uffff', 'İ', '\ud83d\ude00', '\u0800']) {
      const largest = unit.repeat(TEMPLATE_LIMITS.name / unit.length);
      expect(Buffer.byteLength(templateOrderKey(largest, 'x'.repeat(64)))).toBeLessThanOrEqual(1024);
    }
  });
});
