import { InvalidChainInputError, MAX_MICROS, isPlanId } from '@yieldrouter/schemas';
import type { LegRequest } from '@yieldrouter/schemas';
import type { Address } from 'viem';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';

/**
 * The owner of a well-formed leg request, checksummed. Bad input throws before anything is built
 * (`InvalidChainInputError` naming the field); missing configuration is the caller's blocker.
 *
 * @example
 * checkLegRequest(context, request) // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 */
export function checkLegRequest(context: EvmContext, request: LegRequest): Address {
  if (request.amountMicros <= 0n || request.amountMicros > MAX_MICROS) {
    throw new InvalidChainInputError('amountMicros', 'amountMicros: must be > 0 and <= 2^63 - 1');
  }
  const owner = normalizeEvmAddress(request.owner);
  if (!owner) {
    throw new InvalidChainInputError('owner', 'owner: must be 0x + 40 hex (EIP-55 if mixed case)');
  }
  if (!isPlanId(request.planId)) {
    throw new InvalidChainInputError('planId', 'planId: must be plan_ + 32 hex');
  }
  if (request.target.kind === 'venue' && request.target.venue.chain !== context.chain) {
    throw new InvalidChainInputError(
      'target',
      `target: venue ${request.target.venue.venueId} is on ${request.target.venue.chain}, not ${context.chain}`,
    );
  }
  return owner;
}
