import { hasSeedPhrase, PHRASE_WORDS } from './seedPhrase';
import { BASE58, base58Length, base64Length, fieldKind, isValidIdentifier } from './typedFields';
// What a private key or a seed phrase looks like, so the HTTP layer can refuse one unread on any
// route. A finding names where it was and what it looked like, never its value.

/**
 * A maximal run of hex digits (whatever is glued to it: `key`, `0x`, `0X`, other letters) of a
 * key's length or more. Random bytes always have a letter among 64 hex digits; a number does not.
 */
const HEX_RUN = /[0-9a-fA-F]{64,}/g;
/** Hex in groups with one separator (`ab cd ef …`, `abcd:ef01:…`, `0xab, 0xcd, …`). */
const HEX_GROUPS =
  /(?:0[xX])?[0-9a-fA-F]{2,}(?:([\s:_.,;|/-]+)(?:0[xX])?[0-9a-fA-F]{2,})(?:\1(?:0[xX])?[0-9a-fA-F]{2,}){2,}/g;
const HEX_LETTER = /[a-fA-F]/;
const BASE58_TOKEN = /(?<![0-9A-Za-z+/])[1-9A-HJ-NP-Za-km-z]{85,90}(?![0-9A-Za-z+/])/g;
/** base64 or base64url runs of a key's length (`-` and `_` are letters of base64url). */
const BASE64_TOKEN =
  /(?<![0-9A-Za-z+/_-])(?:[A-Za-z0-9+/_-]{42,44}|[A-Za-z0-9+/_-]{84,88})={0,2}(?![0-9A-Za-z+/=_-])/g;
/** Random bytes in base64 mix capitals and small letters; a slug or a word does not. */
const looksRandom = (token: string) => /[A-Z]/.test(token) && /[a-z]/.test(token);
const BASE64URL_RUN = /[A-Za-z0-9+/_-]{42,}={0,2}/g;
const KEY_BASE64_LENGTHS = new Set([42, 43, 44, 84, 85, 86, 87, 88]);

/**
 * base64 runs of a key's length: whole runs, and the parts of a longer run cut at a `-` or `_`
 * (base64url letters that also join a key to a prefix: `x-<key>`, `key_<key>`), which must then
 * also carry a digit (a dashed phrase of capitalised words does not).
 */
function* base64Tokens(text: string): Generator<string> {
  for (const match of text.matchAll(BASE64_TOKEN)) if (looksRandom(match[0])) yield match[0];
  for (const [run] of text.matchAll(BASE64URL_RUN)) {
    const body = run.replace(/=+$/, '');
    const cuts = [0];
    for (let index = 0; index < body.length; index += 1) {
      if (body[index] === '-' || body[index] === '_') cuts.push(index, index + 1);
    }
    cuts.push(body.length);
    for (let from = 0; from < cuts.length; from += 2) {
      for (let to = from + 1; to < cuts.length; to += 2) {
        const part = body.slice(cuts[from], cuts[to]);
        if (part.length === body.length || !KEY_BASE64_LENGTHS.has(part.length)) continue;
        if (looksRandom(part) && /[0-9]/.test(part)) yield part;
      }
    }
  }
}
/** 32 or 64 numbers of 0..255 in a row, bracketed or not, however separated. */
const BYTE_LIST = /\d{1,3}(?:[\s,;]+\d{1,3}){31,}/g;
const SUI_PRIVATE_KEY = /suiprivkey1[02-9ac-hj-np-z]{20,}/i;
const EXTENDED_PRIVATE_KEY = /[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,}/i;
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
const KEY_BYTE_LENGTHS = new Set([32, 64]);

const isByte = (value: unknown) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255;
const isKeyBytes = (values: readonly unknown[]) =>
  KEY_BYTE_LENGTHS.has(values.length) && values.every(isByte);

/**
 * How strong a finding is. `64-byte` shapes are private keys whatever field they are in;
 * `32-byte` ones are also what random tokens look like, so an idempotency key may be one.
 */
interface Finding {
  readonly kind: string;
  readonly bytes: 32 | 64;
}

function hexFinding(text: string): Finding | undefined {
  let found: Finding | undefined;
  for (const [run] of text.matchAll(HEX_RUN)) {
    if (!HEX_LETTER.test(run)) continue;
    if (run.length >= 128) return { kind: 'a 64-byte private key (hex)', bytes: 64 };
    found = { kind: 'a 32-byte private key (hex)', bytes: 32 };
  }
  if (found) return found;
  for (const [groups] of text.matchAll(HEX_GROUPS)) {
    const digits = groups.replace(/0[xX](?=[0-9a-fA-F])/g, '').replace(/[^0-9a-fA-F]/g, '');
    if (digits.length < 64 || !HEX_LETTER.test(digits)) continue;
    const bytes = digits.length >= 128 ? 64 : 32;
    return { kind: `a ${bytes}-byte private key (grouped hex)`, bytes };
  }
  return undefined;
}

function tokenFinding(text: string): Finding | undefined {
  for (const [token] of text.matchAll(BASE58_TOKEN)) {
    if (base58Length(token) === 64) return { kind: 'a 64-byte secret key (base58)', bytes: 64 };
  }
  let found: Finding | undefined;
  for (const token of base64Tokens(text)) {
    // A 32-byte base58 string (an address, a digest) is also valid base64 of a key's size.
    if (BASE58.test(token) && base58Length(token) === 32) continue;
    const bytes = base64Length(token);
    if (bytes === 64) return { kind: '64 bytes of key size (base64)', bytes: 64 };
    if (bytes === 32 || bytes === 33)
      found = { kind: `${bytes} bytes of key size (base64)`, bytes: 32 };
  }
  if (found) return found;
  for (const [list] of text.matchAll(BYTE_LIST)) {
    const numbers = list.split(/[\s,;]+/).map(Number);
    if (isKeyBytes(numbers)) return { kind: 'a secret key (byte list)', bytes: 64 };
  }
  return undefined;
}

/** What `text` looks like when it carries a key or a phrase, anywhere in it. */
function stringFinding(text: string): Finding | undefined {
  if (SUI_PRIVATE_KEY.test(text)) return { kind: 'a Sui private key (suiprivkey)', bytes: 64 };
  if (EXTENDED_PRIVATE_KEY.test(text)) return { kind: 'an extended private key', bytes: 64 };
  const hex = hexFinding(text);
  if (hex?.bytes === 64) return hex;
  if (hasSeedPhrase(text)) return { kind: 'a seed phrase', bytes: 64 };
  const token = tokenFinding(text);
  if (token?.bytes === 64) return token;
  return hex ?? token;
}

/** Whether a field's name says it holds a key (`privateKey`, `secret_key`, `seed-phrase`, …). */
export function isKeyFieldName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return KEY_FIELDS.has(plain) || KEY_FIELD_PARTS.some((part) => plain.includes(part));
}

/** Shorter text carries no key (a phrase of 12 of the shortest words, or 32 bytes of base58). */
const SHORTEST_KEY_TEXT = 12;

/**
 * What a string at `path` looks like when it carries a private key or a seed phrase, or
 * undefined. Field-aware ({@link fieldKind}): a field that holds addresses, digests or ids takes
 * a valid one of its kind as a whole value (a Sui address, an EVM transaction hash, a Solana
 * signature share a key's shape); an idempotency key may be any 32-byte token. Everywhere else,
 * and for any other value, a 32/64-byte key in hex (any case, `0x`/`0X`, glued to letters, in
 * groups), base58, base64 or a byte list, a `suiprivkey…` or `xprv…` key, or a BIP-39 phrase in
 * any wordlist and joining is key material.
 */
export function keyMaterialKind(text: string, path: string): string | undefined {
  if (text.length < SHORTEST_KEY_TEXT) return undefined;
  const kind = fieldKind(path);
  // The same values come again and again (a wallet's address in every path, a Host): a pure
  // function of (text, path), its answers for short values are kept (bounded), so a profile of
  // the position read no longer shows the scan (9 % of the API's CPU). Idempotency keys are
  // new on every request: not kept. Only clean answers are kept: key material found is refused
  // and must not outlive its request in the process's memory.
  if (text.length > KEPT_TEXT_MAX || kind === 'idempotencyKey') return scan(text, kind);
  const memo = `${path}\u0000${text}`;
  if (KEPT_CLEAN.has(memo)) return undefined;
  const found = scan(text, kind);
  if (found !== undefined) return found;
  if (KEPT_CLEAN.size >= KEPT_MAX) KEPT_CLEAN.clear();
  KEPT_CLEAN.add(memo);
  return undefined;
}

const KEPT_CLEAN = new Set<string>();
const KEPT_MAX = 4096;
const KEPT_TEXT_MAX = 256;

function scan(text: string, kind: ReturnType<typeof fieldKind>): string | undefined {
  // A phrase is never an identifier, even one a bytes field would take as base64
  // (`dwarfAlmostDivorce…` is valid base64 of a call's size).
  if (
    kind !== undefined &&
    kind !== 'idempotencyKey' &&
    isValidIdentifier(kind, text.trim()) &&
    !hasSeedPhrase(text)
  ) {
    return undefined;
  }
  const found = stringFinding(text);
  if (!found) return undefined;
  return kind === 'idempotencyKey' && found.bytes === 32 ? undefined : found.kind;
}

/** A list of values that is itself a key (32/64 numbers of 0..255) or a phrase (12+ words). */
export function keyMaterialListKind(values: readonly unknown[]): string | undefined {
  if (isKeyBytes(values)) return `a ${values.length}-byte secret key (byte array)`;
  if (values.length >= PHRASE_WORDS && values.every((value) => typeof value === 'string')) {
    if (hasSeedPhrase(values.join(' '))) return 'a seed phrase (word list)';
  }
  return undefined;
}

/**
 * A request path as the access log writes it: each segment kept (wallets included) unless it
 * looks like key material (the value is then replaced by `[redacted]`), or is not text at all.
 */
export function redactPath(path: string): string {
  if (path.length < SHORTEST_KEY_TEXT && !path.includes('%')) return path;
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
