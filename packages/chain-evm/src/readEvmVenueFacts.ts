import type { VenueFactsReading, VenueOnChain } from '@yieldrouter/schemas';
import { maxUint256 } from 'viem';
import type { Address } from 'viem';
import { aaveV3ATokenAbi, erc20Abi, erc4626Abi } from './abis';
import { callView } from './callView';
import type { EvmContext } from './evmContext';
import type { EvmRpc } from './evmRpc';
import { readableVenue } from './resolveVenueTarget';
import { toUnavailable } from './toUnavailable';

/**
 * The receiver `maxDeposit` is asked about: a fresh account with no position, so the answer is
 * the venue's limit for anyone, not one holder's.
 */
export const CAP_PROBE_RECEIVER: Address = '0x000000000000000000000000000000000000dEaD';

const units = (value: bigint) => value.toString(10);

/** A token's decimals at `block`; null when the token does not answer (never a guess). */
async function decimalsOf(rpc: EvmRpc, token: Address, block: bigint): Promise<number | null> {
  try {
    return await callView(rpc, token, erc20Abi, 'decimals', [], block);
  } catch {
    return null;
  }
}

/**
 * A venue's TVL in native units, deposit limits and tokens, read at one block:
 * - erc4626: TVL = `totalAssets()`; `maxDeposit(CAP_PROBE_RECEIVER)` is the most one deposit can
 *   put in (uint256 max: uncapped, so null); ERC-4626 exposes no total cap; underlying =
 *   `asset()`, receipt = the vault's shares, decimals read from each;
 * - aave-v3: TVL = the aToken's `totalSupply()` (underlying units), underlying =
 *   `UNDERLYING_ASSET_ADDRESS()`, receipt = the aToken; its reserve supply cap is not read
 *   (null with the reason).
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
  const readable = readableVenue(context, venue, what);
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
        decimalsOf(rpc, asset, block),
        decimalsOf(rpc, target.vault, block),
      ]);
      const uncapped = maxDeposit === maxUint256;
      return {
        status: 'ok',
        nativeTvlUnits: units(tvl),
        maxDepositUnits: uncapped ? null : units(maxDeposit),
        totalCapUnits: null,
        underlying: { address: asset, decimals: assetDecimals },
        receipt: { address: target.vault, decimals: shareDecimals },
        reason: uncapped
          ? 'uncapped: maxDeposit is 2^256 − 1; ERC-4626 exposes no total cap'
          : 'ERC-4626 exposes no total cap',
      };
    }
    const [tvl, asset] = await Promise.all([
      callView(rpc, target.aToken, erc20Abi, 'totalSupply', [], block),
      callView(rpc, target.aToken, aaveV3ATokenAbi, 'UNDERLYING_ASSET_ADDRESS', [], block),
    ]);
    const [assetDecimals, receiptDecimals] = await Promise.all([
      decimalsOf(rpc, asset, block),
      decimalsOf(rpc, target.aToken, block),
    ]);
    return {
      status: 'ok',
      nativeTvlUnits: units(tvl),
      maxDepositUnits: null,
      totalCapUnits: null,
      underlying: { address: asset, decimals: assetDecimals },
      receipt: { address: target.aToken, decimals: receiptDecimals },
      reason: 'the Aave v3 reserve supply cap is not read yet',
    };
  } catch (error) {
    return toUnavailable(error, what);
  }
}
