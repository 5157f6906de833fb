import { wordlist as english } from '@scure/bip39/wordlists/english';
import { wordlist as japanese } from '@scure/bip39/wordlists/japanese';
import { wordlist as simplifiedChinese } from '@scure/bip39/wordlists/simplified-chinese';
import { hasSeedPhrase } from './seedPhrase';

// A case keyMaterial.property.test found (seed -1687951553): a Spanish phrase in camelCase,
// decomposed, where `Café` ends in a combining accent right before the next word's capital.
const SPANISH_CAMEL = 'ábacoÁbacoÁbacoÁbacoÁbacoCaféAnchoÁbacoÁbacoÁbacoÁbacoAbrazo';

describe('hasSeedPhrase', () => {
  it.each(['NFC', 'NFD', 'NFKC', 'NFKD'] as const)(
    'reads a camelCase phrase with accents in %s',
    (form) => {
      expect(hasSeedPhrase(SPANISH_CAMEL.normalize(form))).toBe(true);
    },
  );

  it('does not read ordinary accented prose as a phrase', () => {
    expect(hasSeedPhrase('Café Ancho está en la calle; el ábaco es de madera.')).toBe(false);
  });

  // The split of glued words (a walk of each list's words from every start): a word that is
  // the prefix of a longer one, words glued to other letters, scripts without spaces.
  const twelve = (list: readonly string[], from: number) => list.slice(from, from + 12);

  it('splits glued words, a listed word inside a longer one included', () => {
    // `abandon` + `ability` + … and `able` + `about` …: prefixes of other words on the list.
    expect(hasSeedPhrase(twelve(english, 0).join(''))).toBe(true);
    expect(hasSeedPhrase(`mykey${twelve(english, 100).join('')}please`)).toBe(true);
    expect(hasSeedPhrase(twelve(japanese, 40).join(''))).toBe(true);
    expect(hasSeedPhrase(twelve(simplifiedChinese, 7).join(''))).toBe(true);
  });

  it('needs 12 words in a row: 9 glued words, or letters that split into none, are not a phrase', () => {
    expect(hasSeedPhrase(twelve(english, 0).slice(0, 9).join(''))).toBe(false);
    expect(hasSeedPhrase(`${twelve(english, 0).slice(0, 9).join('')}qxzqxzqxzqxz`)).toBe(false);
    expect(hasSeedPhrase('qwxzvbnmqwxzvbnmqwxzvbnmqwxzvbnmqwxzvbnm')).toBe(false);
    expect(hasSeedPhrase('a'.repeat(60_000))).toBe(false);
  });
});
