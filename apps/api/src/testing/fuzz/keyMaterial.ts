// Key-shaped samples the fuzzer injects, and the search for them in captured logs and stored rows.
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import fc from 'fast-check';

const digest = (algorithm: 'sha256' | 'sha512', label: string) =>
  createHash(algorithm).update(`yieldrouter-fuzz:${label}`).digest();

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** Twelve BIP-39 words, unlikely to appear together anywhere by chance. */
export const SAMPLE_MNEMONIC_WORDS = [
  'velvet',
  'orchard',
  'fossil',
  'tumble',
  'pioneer',
  'lizard',
  'canyon',
  'mosquito',
  'ribbon',
  'gadget',
  'hammer',
  'oyster',
] as const;

const hexKey = digest('sha256', 'hex').toString('hex');
const solanaSecret = bs58.encode(digest('sha512', 'solana'));
const suiKey = `suiprivkey1${[...digest('sha512', 'sui')]
  .slice(0, 59)
  .map((byte) => BECH32[byte % 32])
  .join('')}`;
const byteArray = `[${[...digest('sha256', 'bytes')].join(',')}]`;

/** One sample of each key shape a request must never get past the API (or into its logs). */
export const KEY_SAMPLES = {
  hex64: hexKey,
  hex64Prefixed: `0x${hexKey.toUpperCase()}`,
  solanaBase58: solanaSecret,
  suiPrivateKey: suiKey,
  jsonByteArray: byteArray,
  mnemonic: SAMPLE_MNEMONIC_WORDS.join(' '),
} as const;

/** Field names that announce a key, whatever their value. */
export const KEY_FIELD_NAMES = [
  'privateKey',
  'private_key',
  'secretKey',
  'mnemonic',
  'seedPhrase',
  'Mnemonic',
] as const;

/** The mnemonic in odd case and with odd separators (what a careless client might send). */
export const mnemonicVariant: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(' ', '  ', '\t', '\n', ',', ', ', '-', '_', '\u00a0'),
    fc.constantFrom('lower', 'upper', 'title', 'mixed'),
  )
  .map(([separator, casing]) =>
    SAMPLE_MNEMONIC_WORDS.map((word, index) => {
      if (casing === 'upper') return word.toUpperCase();
      if (casing === 'title') return word[0]?.toUpperCase() + word.slice(1);
      if (casing === 'mixed' && index % 2 === 1) return word.toUpperCase();
      return word;
    }).join(separator),
  );

/** A key sample as a string value (one of the fixed shapes, or the phrase in a variant). */
export const keyMaterialString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...Object.values(KEY_SAMPLES)),
  mnemonicVariant,
);

/** A key sample as a JSON value: a string, a byte array, or the phrase as a word list. */
export const keyMaterialValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: keyMaterialString, weight: 4 },
  fc.constant(JSON.parse(byteArray) as unknown),
  fc.constant([...SAMPLE_MNEMONIC_WORDS]),
);

const slices = (text: string, size: number) => {
  const out = new Set<string>();
  for (let start = 0; start + size <= text.length; start += Math.max(1, size / 2)) {
    out.add(text.slice(start, start + size));
  }
  out.add(text.slice(-size));
  return [...out];
};

interface Fingerprint {
  readonly sample: string;
  readonly normalize: (text: string) => string;
  readonly needles: readonly string[];
}

const lower = (text: string) => text.toLowerCase();
const withoutSuiAddresses = (text: string) =>
  lower(text).replace(/0x[0-9a-f]{64}(?![0-9a-f])/g, ' ');
/** Words only; JSON escapes (`\\n`, `\\u00a0`) count as separators, not as letters. */
const lettersOnly = (text: string) =>
  text
    .replace(/\\(?:[nrtbf]|u[0-9a-fA-F]{4})/g, ' ')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ');
const digitsAndCommas = (text: string) => text.replace(/[^0-9,]/g, '');
const exact = (text: string) => text;

function fingerprints(extraSecrets: readonly string[]): Fingerprint[] {
  const words = [...SAMPLE_MNEMONIC_WORDS];
  return [
    // `0x` + 64 hex is a Sui address (or an EVM transaction hash): the API keeps it where an
    // address belongs, so only the key's bare hex counts here.
    { sample: 'hex64', normalize: withoutSuiAddresses, needles: slices(hexKey, 16) },
    { sample: 'solanaBase58', normalize: exact, needles: slices(solanaSecret, 16) },
    { sample: 'suiPrivateKey', normalize: lower, needles: slices(suiKey.slice(11), 16) },
    {
      sample: 'jsonByteArray',
      normalize: digitsAndCommas,
      needles: slices(byteArray.slice(1, -1), 24),
    },
    {
      sample: 'mnemonic',
      normalize: lettersOnly,
      needles: words.slice(0, -2).map((_, i) => ` ${words.slice(i, i + 3).join(' ')} `),
    },
    ...extraSecrets.map((secret) => ({ sample: 'api key', normalize: exact, needles: [secret] })),
  ];
}

/** Finds key material in text; `extraSecrets` (e.g. the test API keys) are searched verbatim. */
export function createKeyMaterialSearch(extraSecrets: readonly string[] = []) {
  const prints = fingerprints(extraSecrets);
  return (text: string): string[] =>
    prints
      .filter(({ normalize, needles }) => {
        // Padded so a phrase at the very start or end still matches its space-delimited needle.
        const haystack = ` ${normalize(text)} `;
        return needles.some((needle) => haystack.includes(needle));
      })
      .map(({ sample }) => sample);
}
