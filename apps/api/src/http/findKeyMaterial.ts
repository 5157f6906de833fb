import { wordlist } from '@scure/bip39/wordlists/english';
// What a private key or a seed phrase looks like, so the HTTP layer can refuse one unread on any
// route. A finding names where it was and what it looked like, never its value.

/**
 * Fields whose values are public identifiers that share a key's shape: a Sui address is 32 bytes
 * of hex like an Ed25519 key, an EVM transaction hash is 32 bytes of hex like a secp256k1 key, and
 * a Solana signature is 64 bytes of base58 like a Solana secret key. Only there, and only as the
 * whole value in exactly that form, is the shape accepted.
 */
const ADDRESS_FIELDS = new Set([
  'address',
  'owner',
  'wallet',
  'wallets',
  'sourceAddress',
  'destAddress',
  'destinationAddress',
]);
const TX_FIELDS = new Set(['txId', 'destTxId', 'sourceTxId']);
const PREFIXED_HEX_32 = /^0x[0-9a-fA-F]{64}$/;

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** A hex run of key length, cut at anything that is not a letter or digit. */
const HEX_TOKEN = /(?<![0-9A-Za-z])(?:0x)?(?:[0-9a-fA-F]{128}|[0-9a-fA-F]{64})(?![0-9A-Za-z])/;
const BASE58_TOKEN = /(?<![0-9A-Za-z+/])[1-9A-HJ-NP-Za-km-z]{85,90}(?![0-9A-Za-z+/])/g;
/** base64 or base64url runs of a key's length (`-` and `_` are letters of base64url). */
const BASE64_TOKEN =
  /(?<![0-9A-Za-z+/_-])(?:[A-Za-z0-9+/_-]{42,44}|[A-Za-z0-9+/_-]{84,88})={0,2}(?![0-9A-Za-z+/=_-])/g;
/** Random bytes in base64 mix capitals and small letters; a slug or a word does not. */
const looksRandom = (token: string) => /[A-Z]/.test(token) && /[a-z]/.test(token);
const BYTE_LIST = /\[\s*\d{1,3}(?:\s*,\s*\d{1,3}){31,63}\s*\]/g;
const SUI_PRIVATE_KEY = /suiprivkey1[02-9ac-hj-np-z]{20,}/i;
const EXTENDED_PRIVATE_KEY = /(?<![0-9A-Za-z])[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,}/;
/** Letters only: a phrase's words may be separated by anything (spaces, commas, dashes, digits). */
const WORDS = /[A-Za-z]+/g;
/** Field names that say "this is a key" (lower case, letters and digits only). */
const KEY_FIELDS = new Set(['secret', 'seed', 'wif', 'xprv', 'keypair', 'privkey', 'sk']);
const KEY_FIELD_PARTS = [
  'privatekey',
  'secretkey',
  'signingkey',
  'mnemonic',
  'seedphrase',
  'secretphrase',
  'recoveryphrase',
  'seedwords',
];
/** BIP-39 phrases are 12 to 24 words: a window of 12 words is what a phrase is judged on. */
const PHRASE_WORDS = 12;
const BIP39 = new Set(wordlist);
const KEY_BYTE_LENGTHS = new Set([32, 64]);

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

const isByte = (value: unknown) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;
const isKeyBytes = (values: readonly unknown[]) =>
  KEY_BYTE_LENGTHS.has(values.length) && values.every(isByte);

/** Of any 12 words in a row, this many on the BIP-39 list make a phrase (two may be typos). */
const PHRASE_LISTED = 10;

/**
 * Twelve words in a row of which at least ten are BIP-39 words, in any case, whatever
 * separates them (a phrase pasted with a typo or two is still a phrase).
 */
function hasPhrase(text: string): boolean {
  const window: boolean[] = [];
  let listed = 0;
  for (const [word] of text.matchAll(WORDS)) {
    const onList = BIP39.has(word.toLowerCase());
    window.push(onList);
    if (onList) listed += 1;
    if (window.length > PHRASE_WORDS && window.shift()) listed -= 1;
    if (window.length === PHRASE_WORDS && listed >= PHRASE_LISTED) return true;
  }
  return false;
}

/** The field a value sits in: `owner` for `body.owner`, `wallets` for `body.wallets[3]`. */
function fieldName(path: string): string {
  return /([A-Za-z0-9_]+)(?:\[\d+\])*$/.exec(path)?.[1] ?? '';
}

/** A public identifier of a key's shape, in a field that holds such identifiers. */
function isIdentifier(text: string, path: string): boolean {
  const name = fieldName(path);
  if (ADDRESS_FIELDS.has(name)) return PREFIXED_HEX_32.test(text);
  if (TX_FIELDS.has(name)) {
    return PREFIXED_HEX_32.test(text) || (BASE58.test(text) && base58Length(text) === 64);
  }
  return false;
}

function tokenKind(text: string): string | undefined {
  for (const [token] of text.matchAll(BASE58_TOKEN)) {
    if (base58Length(token) === 64) return 'a 64-byte secret key (base58)';
  }
  for (const [token] of text.matchAll(BASE64_TOKEN)) {
    // A 32-byte base58 string (an address, a digest) is also valid base64 of a key's size.
    if (BASE58.test(token) && base58Length(token) === 32) continue;
    if (!looksRandom(token)) continue;
    const bytes = base64Length(token);
    if ([32, 33, 64].includes(bytes)) return `${bytes} bytes of key size (base64)`;
  }
  for (const [list] of text.matchAll(BYTE_LIST)) {
    if (isKeyBytes(JSON.parse(list) as unknown[])) return 'a secret key (JSON byte array)';
  }
  return undefined;
}

/** What `text` looks like when it carries a key or a phrase, anywhere in it. */
function stringKind(text: string): string | undefined {
  if (SUI_PRIVATE_KEY.test(text)) return 'a Sui private key (suiprivkey)';
  if (EXTENDED_PRIVATE_KEY.test(text)) return 'an extended private key';
  const hex = HEX_TOKEN.exec(text)?.[0].replace(/^0x/, '');
  if (hex) return `a ${hex.length / 2}-byte private key (hex)`;
  if (hasPhrase(text)) return 'a seed phrase';
  return tokenKind(text);
}

/** Whether a field's name says it holds a key (`privateKey`, `secret_key`, `seed-phrase`, …). */
export function isKeyFieldName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return KEY_FIELDS.has(plain) || KEY_FIELD_PARTS.some((part) => plain.includes(part));
}

/**
 * What a string at `path` looks like when it carries a private key or a seed phrase: a 32/64-byte
 * key as hex, base58, base64 or a JSON byte list (alone or inside other text: `key:0x…`), a Sui
 * `suiprivkey…` or an extended `xprv…` key, or 12+ BIP-39 words in a row in any case and with any
 * separator. Addresses, transaction ids, signed transactions, signatures and plan ids do not look
 * like any of these (a Sui address or an EVM transaction hash only where the field holds one).
 */
export function keyMaterialKind(text: string, path: string): string | undefined {
  if (text.length < 32) return undefined;
  const kind = stringKind(text);
  return kind && !isIdentifier(text.trim(), path) ? kind : undefined;
}

/** A list of values that is itself a key (32/64 numbers of 0..255) or a phrase (12+ words). */
export function keyMaterialListKind(values: readonly unknown[]): string | undefined {
  if (isKeyBytes(values)) return `a ${values.length}-byte secret key (byte array)`;
  if (values.length >= PHRASE_WORDS && values.every((value) => typeof value === 'string')) {
    if (hasPhrase(values.join(' '))) return 'a seed phrase (word list)';
  }
  return undefined;
}

/**
 * A request path as the access log writes it: each segment kept (wallets included) unless it
 * looks like key material (the value is then replaced by `[redacted]`), or is not text at all.
 */
export function redactPath(path: string): string {
  if (path.length < 32 && !path.includes('%')) return path;
  const segments = path.split('/');
  return segments
    .map((segment, index) => {
      let text: string;
      try {
        text = decodeURIComponent(segment);
      } catch {
        return '[undecodable]';
      }
      // Only the segment after `wallets` is a wallet address (a Sui one has a key's shape).
      const field = segments[index - 1] === 'wallets' ? 'path.address' : 'path.segment';
      return keyMaterialKind(text, field) ? '[redacted]' : segment;
    })
    .join('/');
}
