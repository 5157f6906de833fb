import fc from 'fast-check';
import { encodeComponent } from './requestParts';

/** Character by character, as encodeComponent did for every string before its whole-string path. */
const byCharacter = (value: string) =>
  [...value]
    .map((char) => {
      const code = char.codePointAt(0) ?? 0;
      if (code < 0xd800 || code > 0xdfff) return encodeURIComponent(char);
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');

describe('encodeComponent', () => {
  it('encodes well-formed strings whole, with the same text as character by character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (value) => {
        expect(encodeComponent(value)).toBe(byCharacter(value));
      }),
      { seed: 16, numRuns: 500 },
    );
    const huge = `${'B'.repeat(200_000)}é😀`;
    expect(encodeComponent(huge)).toBe(byCharacter(huge));
  });

  it('encodes lone surrogates as their CESU-8 bytes instead of throwing', () => {
    expect(encodeComponent('a\ud800b')).toBe('a%ED%A0%80b');
    expect(encodeComponent('\udfff😀')).toBe('%ED%BF%BF%F0%9F%98%80');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        expect(encodeComponent(value)).toBe(byCharacter(value));
      }),
      { seed: 16, numRuns: 200 },
    );
  });
});
