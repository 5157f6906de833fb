// Request fields whose values are public identifiers that can share a key's shape, and the
// shapes they take. A value in such a field is never refused as key material when it is, as a
// whole, a valid identifier of the field's kind; anywhere else the same text is refused.

/**
 * - `address`: a chain address (a Sui address is 32 bytes of hex like an Ed25519 key) or a Sui
 *   coin type (`0x…::usdc::USDC`).
 * - `digest`: a transaction id or hash (an EVM transaction hash is 32 bytes of hex like a
 *   secp256k1 key; a Solana signature is 64 bytes of base58 like a Solana secret key).
 * - `id`: an id this service issues (`plan_<32 hex>`, `svcop…`, a UUID, a venue id).
 * - `idempotencyKey`: the caller's retry token (`Idempotency-Key`, body `idempotencyKey`).
 * - `bytes`: encoded transaction bytes or calldata (`signedTransaction`, `calls[].data`): long
 *   hex or base64 that holds signatures and 32-byte words, never a key by itself.
 */
export type FieldKind = 'address' | 'digest' | 'id' | 'idempotencyKey' | 'bytes';

const ADDRESS_NAMES = new Set([
  'owner',
  'wallet',
  'wallets',
  'payee',
  'payees',
  'recipient',
  'mint',
  'inputmint',
  'outputmint',
  'token',
  'fromtoken',
  'totoken',
  'inputtoken',
  'outputtoken',
  'tokenin',
  'tokenout',
  'cointype',
]);
const DIGEST_SUFFIXES = ['txid', 'txhash', 'txdigest', 'hash', 'digest'];
const BYTES_NAMES = new Set([
  'signedtransaction',
  'signedtransactions',
  'signedtx',
  'transaction',
  'transactions',
  'unsignedtransaction',
  'serializedtransaction',
  'txbytes',
  'data',
  'calldata',
]);

/** The field a value sits in: `owner` for `body.owner`, `wallets` for `body.wallets[3]`. */
function fieldName(path: string): string {
  return /([A-Za-z0-9_-]+)(?:\[\d+\])*$/.exec(path)?.[1] ?? '';
}

/** The kind of identifier the field at `path` holds, by its name; undefined for any other. */
export function fieldKind(path: string): FieldKind | undefined {
  const name = fieldName(path).toLowerCase().replace(/[_-]/g, '');
  if (name === 'idempotencykey') return 'idempotencyKey';
  if (BYTES_NAMES.has(name)) return 'bytes';
  if (name.endsWith('address') || ADDRESS_NAMES.has(name)) return 'address';
  if (DIGEST_SUFFIXES.some((suffix) => name.endsWith(suffix))) return 'digest';
  if (name === 'id' || name.endsWith('id') || name.endsWith('ids')) return 'id';
  return undefined;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

/** Decoded length of a base58 string (leading '1's are zero bytes). */
export function base58Length(text: string): number {
  let value = 0n;
  for (const char of text) value = value * 58n + BigInt(BASE58_ALPHABET.indexOf(char));
  let bytes = 0;
  for (; value > 0n; value >>= 8n) bytes += 1;
  const zeros = text.length - text.replace(/^1+/, '').length;
  return bytes + zeros;
}

/** Decoded length of a base64 string (trailing '=' padding is no byte). */
export function base64Length(text: string): number {
  return Math.floor((text.replace(/=+$/, '').length * 3) / 4);
}

const base58Of = (text: string, ...lengths: number[]) =>
  text.length <= 90 && BASE58.test(text) && lengths.includes(base58Length(text));

/** `0x` and 1..64 hex digits: EVM (40) and Sui (up to 64) addresses, in any letter case. */
const HEX_ADDRESS = /^0x[0-9a-fA-F]{1,64}$/;
const COIN_TYPE = /^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$/;
const HEX_DIGEST = /^0x[0-9a-fA-F]{64}$/;
const OUR_ID =
  /^(?:plan_[0-9a-f]{32}|svcop[0-9a-f]{1,64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
/** An even number of hex digits, `0x` or not: calldata or EVM transaction bytes. */
const HEX_BYTES = /^(?:0[xX])?((?:[0-9a-fA-F]{2})+)$/;
const BASE64_BYTES = /^[A-Za-z0-9+/]+={0,2}$/;
/** A key's lengths in bytes: encoded bytes of exactly these sizes are refused as a key. */
const KEY_SIZES = new Set([32, 33, 64]);
/** A call's bytes start with at least a 4-byte selector. */
const SHORTEST_CALL = 4;
const sizedLikeCall = (bytes: number) => bytes >= SHORTEST_CALL && !KEY_SIZES.has(bytes);

/**
 * Whether `text` is, as a whole, encoded bytes of a call's or a transaction's size (not a key's
 * 32, 33 or 64 bytes), read the way a key would be: hex first, then base58 of a key's size
 * (a Solana secret key), then base64.
 */
function isEncodedBytes(text: string): boolean {
  const hexDigits = HEX_BYTES.exec(text)?.[1];
  if (hexDigits !== undefined) return sizedLikeCall(hexDigits.length / 2);
  if (text.length <= 90 && BASE58.test(text) && KEY_SIZES.has(base58Length(text))) return false;
  if (BASE64_BYTES.test(text) && text.length % 4 === 0) {
    return sizedLikeCall(base64Length(text));
  }
  return false;
}

/** Whether `text` is, as a whole, a valid identifier of `kind` (an address, digest, id, bytes). */
export function isValidIdentifier(
  kind: Exclude<FieldKind, 'idempotencyKey'>,
  text: string,
): boolean {
  switch (kind) {
    case 'bytes':
      return isEncodedBytes(text);
    case 'address':
      return HEX_ADDRESS.test(text) || COIN_TYPE.test(text) || base58Of(text, 32);
    case 'digest':
      return HEX_DIGEST.test(text) || base58Of(text, 32, 64);
    case 'id':
      return OUR_ID.test(text);
  }
}
