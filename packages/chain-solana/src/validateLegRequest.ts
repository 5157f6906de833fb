import { InvalidChainInputError, isPlanId } from '@yieldrouter/schemas';
import type { LegRequest } from '@yieldrouter/schemas';
import type { PublicKey } from '@solana/web3.js';
import { parsePublicKey } from './parsePublicKey';

const U64_MAX = (1n << 64n) - 1n;

/**
 * Checks a leg request before any configuration or RPC is looked at: owner a base58 key, plan id
 * ours, amount a positive u64. Throws `InvalidChainInputError` naming the field.
 */
export function validateLegRequest(request: LegRequest): PublicKey {
  const owner = parsePublicKey(request.owner);
  if (!owner) throw new InvalidChainInputError('owner', 'owner: not a base58 Solana public key');
  if (!isPlanId(request.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  if (request.amountMicros <= 0n || request.amountMicros > U64_MAX) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must be a positive u64');
  }
  return owner;
}
