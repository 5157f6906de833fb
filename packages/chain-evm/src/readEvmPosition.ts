import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { PositionReading, VenueOnChain } from '@yieldrouter/schemas';
import { isAddressEqual } from 'viem';
import type { Address } from 'viem';
import { aaveV3ATokenAbi, aaveV3PoolAbi, erc4626Abi } from './abis';
import { callView } from './callView';
import type { EvmContext } from './evmContext';
import type { EvmRpc } from './evmRpc';
import { normalizeEvmAddress } from './normalizeEvmAddress';
import { readAavePoolRevision } from './readAavePoolRevision';
import { aaveTokenMath } from './aaveTokenMath';
import { readableVenue } from './resolveVenueTarget';
import type { VenueTarget } from './resolveVenueTarget';
import { toUnavailable } from './toUnavailable';

/**
 * The owner's position in a venue at one block (the latest when the read starts), in the venue's
 * shares and in USDC micros at its share price:
 * - erc4626: shares = `balanceOf(owner)`; a number of shares is worth `convertToAssets(shares)`;
 * - aave-v3: shares = `aToken.scaledBalanceOf(owner)` (Aave v3's aTokens rebase; the scaled
 *   balance is what a supply mints and a withdrawal burns); a number of shares is worth
 *   `pool.getReserveNormalizedIncome(asset)` applied as the aToken's `balanceOf` applies it (down
 *   from Aave v3.5, half up before: `aaveTokenMath` of the pool's `POOL_REVISION()`), where asset
 *   is the aToken's `UNDERLYING_ASSET_ADDRESS()` (every Aave v3 aToken exposes it, so the index
 *   is the aToken's own reserve's); when USDC is configured it must be that asset.
 * `shares` is the number the caller tracks (the shares our settled legs minted); its value comes
 * from the same share price as the owner's, never from "value minus basis". Every call names the
 * block read first.
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
  const readable = await readableVenue(context, venue, what);
  if (readable.status !== 'ok') return readable;
  const { rpc, target } = readable;
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
    return await readAavePosition(rpc, target, {
      account,
      shares,
      block,
      usdc: context.usdc,
      what,
    });
  } catch (error) {
    return toUnavailable(error, what);
  }
}

/** aave-v3 at `block`: the scaled balance, and the reserve's normalized income as share price. */
async function readAavePosition(
  rpc: EvmRpc,
  target: Extract<VenueTarget, { standard: 'aave-v3' }>,
  read: {
    account: Address;
    shares: bigint;
    block: bigint;
    usdc: Address | undefined;
    what: string;
  },
): Promise<PositionReading> {
  const { account, shares, block, usdc } = read;
  const [ownerShares, asset, poolRevision] = await Promise.all([
    callView(rpc, target.aToken, aaveV3ATokenAbi, 'scaledBalanceOf', [account], block),
    callView(rpc, target.aToken, aaveV3ATokenAbi, 'UNDERLYING_ASSET_ADDRESS', [], block),
    readAavePoolRevision(rpc, target.pool, block),
  ]);
  if (usdc && !isAddressEqual(asset, usdc)) {
    return {
      status: 'unavailable',
      reason: 'asset_not_configured',
      detail: `${read.what}: the aToken is of ${asset}, not the configured USDC ${usdc}`,
    };
  }
  const index = await callView(
    rpc,
    target.pool,
    aaveV3PoolAbi,
    'getReserveNormalizedIncome',
    [asset],
    block,
  );
  const { balanceOf } = aaveTokenMath(poolRevision);
  return reading(ownerShares, balanceOf(shares, index), balanceOf(ownerShares, index), block);
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
