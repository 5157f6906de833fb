import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { erc20Abi, erc4626Abi } from './abis';
import { callView } from './callView';
import { rpcNotConfigured } from './evmContext';
import type { EvmContext } from './evmContext';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { resolveVenueTarget } from './resolveVenueTarget';
import { toUnavailable } from './toUnavailable';

/**
 * The owner's position in a venue at one block (the latest when the read starts), in the venue's
 * shares and in USDC micros at its share price:
 * - erc4626: shares = `balanceOf(owner)`; a number of shares is worth `convertToAssets(shares)`;
 * - aave-v3: shares = `aToken.balanceOf(owner)`, valued 1:1 (the bed's stand-in has no index).
 * `shares` is the number the caller tracks (the shares our settled legs minted); its value comes
 * from the same share price as the owner's, never from "value minus basis".
 *
 * @throws InvalidChainInputError for a malformed owner or a venue of another chain.
 * @example
 * await readEvmPosition(context, venue, owner, 12_000_000n)
 * // { status: 'ok', ownerShares: 12_000_000n, sharesValueMicros: 12_750_000n, ownerValueMicros: 12_750_000n, block: '42', asOf }
 */
export async function readEvmPosition(
  context: EvmContext,
  venue: VenueOnChain,
  owner: string,
  shares: bigint,
): Promise<PositionReading> {
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
    const block = await rpc.blockNumber();
    if (target.standard === 'erc4626') {
      const toAssets = (amount: bigint) =>
        amount === 0n
          ? Promise.resolve(0n)
          : callView(rpc, target.vault, erc4626Abi, 'convertToAssets', [amount], block);
      const ownerShares = await callView(
        rpc,
        target.vault,
        erc4626Abi,
        'balanceOf',
        [account],
        block,
      );
      const [sharesValueMicros, ownerValueMicros] = await Promise.all([
        toAssets(shares),
        toAssets(ownerShares),
      ]);
      return reading(ownerShares, sharesValueMicros, ownerValueMicros, block);
    }
    const ownerShares = await callView(rpc, target.aToken, erc20Abi, 'balanceOf', [account], block);
    return reading(ownerShares, shares, ownerShares, block);
  } catch (error) {
    return toUnavailable(error, what);
  }
}

function reading(
  ownerShares: bigint,
  sharesValueMicros: bigint,
  ownerValueMicros: bigint,
  block: bigint,
): PositionReading {
  return {
    status: 'ok',
    ownerShares,
    sharesValueMicros,
    ownerValueMicros,
    block: block.toString(10),
    asOf: new Date(),
  };
}
