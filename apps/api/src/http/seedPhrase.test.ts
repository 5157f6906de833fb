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
});
