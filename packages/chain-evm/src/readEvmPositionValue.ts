import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PositionValue, VenueOnChain } from '@yieldrouter/schemas';
import { erc20Abi, erc4626Abi } from './abis';
import { callView } from './callView';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { resolveVenueTarget } from './resolveVenueTarget';
import { toUnavailable } from './toUnavailable';

/**
 * What the owner's position in a venue is worth now, in USDC micros, read from the chain:
 * erc4626 → `convertToAssets(balanceOf(owner))`; aave-v3 → `aToken.balanceOf(owner)`.
 * Other standards have no standard reader on EVM.
 *
 * @throws InvalidChainInputError for a malformed owner or a venue of another chain.
 * @example
 * await readEvmPositionValue(context, venue, owner) // { status: 'ok', valueMicros: 12_750_000n, asOf }
 */
export async function readEvmPositionValue(
  context: EvmContext,
  venue: VenueOnChain,
  owner: string,
): Promise<PositionValue> {
  const account = normalizeEvmAddress(owner);
  if (!account) {
    throw new InvalidChainInputError('owner', 'owner: must be 0x + 40 hex (EIP-55 if mixed case)');
  }
  if (venue.chain !== context.chain) {
    throw new InvalidChainInputError('venue', `venue: ${venue.venueId} is not on ${context.chain}`);
  }
  const what = `position in ${venue.venueId} on ${context.label}`;
  const resolved = resolveVenueTarget(venue);
  if (resolved.status === 'blocked') {
    return {
      status: 'unavailable',
      reason: venue.standard === 'router-adapter' ? 'no_standard_reader' : 'asset_not_configured',
      detail: `${what}: ${resolved.blockers.map((blocker) => blocker.message).join(' ')}`,
    };
  }
  if (!context.rpc) return rpcNotConfigured(context, what);
  const rpc = context.rpc;
  const target = resolved.target;
  try {
    let valueMicros: bigint;
    if (target.standard === 'erc4626') {
      const shares = await callView(rpc, target.vault, erc4626Abi, 'balanceOf', [account]);
      valueMicros =
        shares === 0n
          ? 0n
          : await callView(rpc, target.vault, erc4626Abi, 'convertToAssets', [shares]);
    } else {
      valueMicros = await callView(rpc, target.aToken, erc20Abi, 'balanceOf', [account]);
    }
    return { status: 'ok', valueMicros, asOf: new Date() };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
