import { BASE64 } from '@yieldrouter/schemas';
// What a private key or a seed phrase looks like, so a route that takes owner-signed bytes can
// refuse one unread. The finding names where it was and what it looked like, never its value.

export interface KeyMaterialFinding {
  /** Where in the body, e.g. `body.signedTransaction` or `body.signatures[1]`. */
  readonly path: string;
  /** What it looked like, e.g. `a 64-byte secret key (base58)`. */
  readonly kind: string;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX = /^(?:0x)?([0-9a-fA-F]+)$/;
const BYTE_LIST = /^\[\s*\d{1,3}(?:\s*,\s*\d{1,3})*\s*\]$/;
const WORD = /^[a-z]{3,8}$/;
const SUI_PRIVATE_KEY = /^suiprivkey1[02-9ac-hj-np-z]{20,}$/;
const EXTENDED_PRIVATE_KEY = /^[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,}$/;
/** Field names that say "this is a key" (lower case, without `-`, `_` or spaces). */
const KEY_FIELDS = new Set([
  'privatekey',
  'privkey',
  'secretkey',
  'secret',
  'mnemonic',
  'seed',
  'seedphrase',
  'secretphrase',
  'recoveryphrase',
  'keypair',
  'xprv',
  'wif',
]);
const PHRASE_LENGTHS = new Set([12, 15, 18, 21, 24]);
const KEY_BYTE_LENGTHS = new Set([32, 64]);
const MAX_DEPTH = 8;

/** Decoded length of a base58 string (leading '1's are zero bytes). */
function base58Length(text: string): number {
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  let bytes = 0;
  for (; value > 0n; value >>= 8n) bytes += 1;
  const zeros = text.length - text.replace(/^1+/, '').length;
  return bytes + zeros;
}

const base64Length = (text: string) => Math.floor((text.replace(/=+$/, '').length * 3) / 4);

const isKeyBytes = (values: readonly unknown[]) =>
  KEY_BYTE_LENGTHS.has(values.length) &&
  values.every(
    (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255,
  );

const isPhrase = (words: readonly unknown[]) =>
  PHRASE_LENGTHS.has(words.length) &&
  words.every((word) => typeof word === 'string' && WORD.test(word));

function stringKind(raw: string): string | undefined {
  const text = raw.trim();
  if (SUI_PRIVATE_KEY.test(text)) return 'a Sui private key (suiprivkey)';
  if (EXTENDED_PRIVATE_KEY.test(text)) return 'an extended private key';
  const hex = HEX.exec(text)?.[1];
  if (hex && (hex.length === 64 || hex.length === 128)) {
    return `a ${hex.length / 2}-byte private key (hex)`;
  }
  if (BYTE_LIST.test(text)) {
    const values = JSON.parse(text) as unknown[];
    if (isKeyBytes(values)) return `a ${values.length}-byte secret key (JSON byte array)`;
  }
  if (isPhrase(text.split(/\s+/))) return 'a seed phrase';
  const base58Bytes = BASE58.test(text) && text.length <= 90 ? base58Length(text) : undefined;
  if (base58Bytes === 64) return 'a 64-byte secret key (base58)';
  // A 32-byte base58 string is an address; base64 of a key's size is a key.
  if (base58Bytes !== 32 && BASE64.test(text) && [32, 33, 64].includes(base64Length(text))) {
    return `${base64Length(text)} bytes of key size (base64)`;
  }
  return undefined;
}

/**
 * The first thing in `value` (a parsed JSON body) that looks like a private key or a seed phrase:
 * a 32/64-byte key as hex, base58, base64 or a JSON byte array (as a string or an array), a Sui
 * `suiprivkey…` or an extended `xprv…` key, 12–24 lower-case words (as one string or a list),
 * or a field named like a key (`privateKey`, `secretKey`, `mnemonic`, `seedPhrase`, …).
 * Signed transactions, signatures and plan ids do not look like any of these.
 *
 * @example
 * findKeyMaterial({ signedTransaction: bs58.encode(keypair.secretKey) }, 'body');
 * // { path: 'body.signedTransaction', kind: 'a 64-byte secret key (base58)' }
 */
export function findKeyMaterial(
  value: unknown,
  path: string,
  depth = 0,
): KeyMaterialFinding | undefined {
  if (typeof value === 'string') {
    const kind = stringKind(value);
    return kind ? { path, kind } : undefined;
  }
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    if (isKeyBytes(value)) return { path, kind: `a ${value.length}-byte secret key (byte array)` };
    if (isPhrase(value)) return { path, kind: 'a seed phrase (word list)' };
    for (const [index, item] of value.entries()) {
      const found = findKeyMaterial(item, `${path}[${index}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [name, item] of Object.entries(value)) {
    const field = `${path}.${name}`;
    if (KEY_FIELDS.has(name.toLowerCase().replace(/[-_\s]/g, ''))) {
      return { path: field, kind: 'a field named like a private key or seed phrase' };
    }
    const found = findKeyMaterial(item, field, depth + 1);
    if (found) return found;
  }
  return undefined;
}
