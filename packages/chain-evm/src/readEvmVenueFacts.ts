import type { VenueFactsReading, VenueOnChain } from '@yieldrouter/schemas';
import { maxUint256 } from 'viem';
import type { Address } from 'viem';
import { erc4626Abi } from './abis';
import { callView } from './callView';
import type { EvmContext } from './evmContext';
import { readAaveVenueFacts } from './readAaveVenueFacts';
import { readTokenDecimals } from './readTokenDecimals';
import { readableVenue } from './resolveVenueTarget';
import { toUnavailable } from './toUnavailable';

/**
 * The receiver `maxDeposit` is asked about: a fresh account with no position, so the answer is
 * the venue's limit for anyone, not one holder's.
 */
export const CAP_PROBE_RECEIVER: Address = '0x000000000000000000000000000000000000dEaD';

/**
 * A venue's TVL in native units, deposit limits and tokens, all read at one block:
 * - erc4626: TVL = `totalAssets()`; `maxDeposit(CAP_PROBE_RECEIVER)` is the most one deposit can
 *   put in (uint256 max: uncapped, so null); ERC-4626 exposes no total cap; underlying =
 *   `asset()`, receipt = the vault's shares, decimals read from each;
 * - aave-v3 (`readAaveVenueFacts`): TVL = the aToken's `totalSupply()`, underlying =
 *   `UNDERLYING_ASSET_ADDRESS()`, receipt = the aToken; the reserve supply cap
 *   (`supplyCap × 10^decimals` from the reserve configuration) is `totalCapUnits`, what Aave
 *   counts against it (supply plus the treasury's accrued share) `capUsedUnits`, and the room
 *   under it `maxDepositUnits` (0 while the reserve is inactive, paused or frozen); no cap set →
 *   both caps null with the reason "no supply cap set (uncapped)".
 * Fail-closed: a missing id, no RPC or a failed call is `unavailable` with the reason.
 *
 * @example
 * await readEvmVenueFacts(context, { venueId: 'v', chain: 'base', standard: 'erc4626', ids: { vault } })
 * // { status: 'ok', nativeTvlUnits: '25000000', maxDepositUnits: null, totalCapUnits: null, … }
 */
export async function readEvmVenueFacts(
  context: EvmContext,
  venue: VenueOnChain,
): Promise<VenueFactsReading> {
  const what = `facts of ${venue.venueId} on ${context.label}`;
  const readable = await readableVenue(context, venue, what);
  if (readable.status !== 'ok') return readable;
  const { rpc, target } = readable;
  try {
    const block = await rpc.blockNumber();
    if (target.standard === 'erc4626') {
      const [tvl, maxDeposit, asset] = await Promise.all([
        callView(rpc, target.vault, erc4626Abi, 'totalAssets', [], block),
        callView(rpc, target.vault, erc4626Abi, 'maxDeposit', [CAP_PROBE_RECEIVER], block),
        callView(rpc, target.vault, erc4626Abi, 'asset', [], block),
      ]);
      const [assetDecimals, shareDecimals] = await Promise.all([
        readTokenDecimals(rpc, asset, block),
        readTokenDecimals(rpc, target.vault, block),
      ]);
      const uncapped = maxDeposit === maxUint256;
      return {
        status: 'ok',
        nativeTvlUnits: tvl.toString(10),
        maxDepositUnits: uncapped ? null : maxDeposit.toString(10),
        totalCapUnits: null,
        capUsedUnits: null,
        underlying: { address: asset, decimals: assetDecimals },
        receipt: { address: target.vault, decimals: shareDecimals },
        reason: uncapped
          ? 'uncapped: maxDeposit is 2^256 − 1; ERC-4626 exposes no total cap'
          : 'ERC-4626 exposes no total cap',
      };
    }
    return await readAaveVenueFacts(rpc, target, block, what);
  } catch (error) {
    return toUnavailable(error, what);
  }
}
