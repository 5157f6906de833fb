import { getAddress, isAddress } from 'viem';
import type { Address } from 'viem';

// Wallet routes normalize the same few addresses on every request. viem caches both steps too,
// but each of its LRU hits builds a key string and reorders a Map twice; one lookup by the input
// is several times cheaper. Inputs are caller-supplied: only address-length strings are kept
// (anything else is refused before the cache), at most MAX_CACHED, oldest out first.
const ADDRESS_LENGTH = 42;
const MAX_CACHED = 4096;
const cache = new Map<string, Address | null>();

/**
 * The EIP-55 checksummed form of `address`, or undefined. All-lowercase and all-capitals input
 * (EIP-55: neither carries a checksum) is accepted; mixed case must carry a valid checksum (a
 * wrong one is a typo, never silently "fixed").
 *
 * @example
 * normalizeEvmAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // '0xd8dA6BF2…6045'
 */
export function normalizeEvmAddress(address: string): Address | undefined {
  if (address.length !== ADDRESS_LENGTH) return undefined;
  const cached = cache.get(address);
  if (cached !== undefined) return cached ?? undefined;
  const body = address.slice(2);
  const plain = body === body.toUpperCase() ? `0x${body.toLowerCase()}` : address;
  const normalized =
    address.startsWith('0x') && isAddress(plain, { strict: true }) ? getAddress(plain) : null;
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(address, normalized);
  return normalized ?? undefined;
}
