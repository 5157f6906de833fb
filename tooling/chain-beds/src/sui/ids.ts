import { randomBytes } from 'node:crypto';
import { normalizeStructTag, normalizeSuiAddress, toBase58 } from '@mysten/sui/utils';

/** The SUI coin type as the JSON-RPC API prints it (short framework address). */
export const SUI_COIN_TYPE = '0x2::sui::SUI';

const FRAMEWORK_PREFIX = `${normalizeSuiAddress('0x2')}::`;

/** A fresh random object id (0x + 64 hex). */
export function randomObjectId(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

/** A fresh random 32-byte digest in base58, the format of object and transaction digests. */
export function randomDigest(): string {
  return toBase58(new Uint8Array(randomBytes(32)));
}

/** The canonical key for a coin type: every address in full (0x + 64 hex). */
export function coinTypeKey(coinType: string): string {
  return normalizeStructTag(coinType);
}

/** A coin type as Sui's JSON-RPC prints it: framework types keep the short `0x2::` form. */
export function displayCoinType(coinType: string): string {
  const key = coinTypeKey(coinType);
  return key.startsWith(FRAMEWORK_PREFIX) ? `0x2::${key.slice(FRAMEWORK_PREFIX.length)}` : key;
}

const ADDRESS = /^0x[0-9a-fA-F]{1,64}$/;

/** The full form of a Sui address, or undefined when it is not 0x + 1..64 hex. */
export function parseAddress(value: unknown): string | undefined {
  return typeof value === 'string' && ADDRESS.test(value) ? normalizeSuiAddress(value) : undefined;
}

/** The key of a Move function: `0x<64 hex>::module::function`. */
export function moveFunctionKey(packageId: string, module: string, name: string): string {
  return `${normalizeSuiAddress(packageId)}::${module}::${name}`;
}
