import { getAddress, isAddress } from 'viem';
import type { Address } from 'viem';

/**
 * The EIP-55 checksummed form of `address`, or undefined. All-lowercase input is accepted; mixed
 * case must carry a valid checksum (a wrong one is a typo, never silently "fixed").
 *
 * @example
 * normalizeEvmAddress('0xd8da6bf26964af9d7eed9e03e53415d37aa96045') // '0xd8dA6BF2…6045'
 */
export function normalizeEvmAddress(address: string): Address | undefined {
  return isAddress(address, { strict: true }) ? getAddress(address) : undefined;
}
