import type { Chain } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';

/**
 * Chains tried, in order, to recognise an address (Base and Arbitrum share one format). EVM
 * first: Sui also accepts short hex addresses (zero-padded), so a 20-byte EVM address would
 * otherwise pass as a Sui one.
 */
const RECOGNITION_ORDER: readonly Chain[] = ['base', 'solana', 'sui'];

/**
 * The key a wallet's ledger is kept under: its canonical address on the chain family whose
 * format it has (EVM addresses checksummed, so `0xabc…` and `0xAbC…` are one wallet), or the
 * string as given for a free-form label (SPEC: the walkthrough uses labels).
 */
export function ledgerWallet(adapters: ChainAdapters, address: string): string {
  for (const chain of RECOGNITION_ORDER) {
    const canonical = adapters[chain].normalizeAddress(address);
    if (canonical) return canonical;
  }
  return address;
}

/** The chain an address belongs to by its format (EVM → base), or undefined for a label. */
export function chainOfAddress(adapters: ChainAdapters, address: string): Chain | undefined {
  return RECOGNITION_ORDER.find((chain) => adapters[chain].normalizeAddress(address) !== undefined);
}

/**
 * The owner's canonical address on `chain`, for a leg the owner signs. A wallet that is not an
 * address of that chain cannot sign there: 400 naming the path parameter.
 */
export function ownerOn(adapters: ChainAdapters, address: string, chain: Chain): string {
  const owner = adapters[chain].normalizeAddress(address);
  if (!owner) {
    throw new EngineError(
      'BAD_REQUEST',
      `path.address: ${address} is not a ${chain} address`,
      'path.address',
    );
  }
  return owner;
}
