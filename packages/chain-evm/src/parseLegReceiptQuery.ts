import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { Address, Hash } from 'viem';
import { normalizeEvmAddress } from './normalizeEvmAddress';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export interface ParseLegReceiptQueryParameters {
  readonly txId: string;
  readonly owner: string;
  readonly planId: string;
}

export interface ParseLegReceiptQueryReturnType {
  /** Lower-cased. */
  readonly txId: Hash;
  readonly owner: Address;
}

/**
 * Checks what every leg receipt query names (venue legs and swap legs alike) before any RPC call.
 *
 * @throws InvalidChainInputError for a malformed txId, owner or planId.
 * @example
 * const { txId, owner } = parseLegReceiptQuery({ txId, owner, planId })
 */
export function parseLegReceiptQuery(
  query: ParseLegReceiptQueryParameters,
): ParseLegReceiptQueryReturnType {
  if (!TX_HASH.test(query.txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be 0x + 64 hex');
  }
  const txId = query.txId.toLowerCase() as Hash;
  const owner = normalizeEvmAddress(query.owner);
  if (!owner) {
    throw new InvalidChainInputError('owner', 'owner: must be 0x + 40 hex (EIP-55 if mixed case)');
  }
  if (!isPlanId(query.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  return { txId, owner };
}
