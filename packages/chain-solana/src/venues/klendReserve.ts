import { PublicKey } from '@solana/web3.js';
import { SolanaBadResponseError } from '../describeRpcFailure';

/** klend's Reserve account: `sha256("account:Reserve")[0..8]`, 8 + 8616 bytes. */
export const KLEND_RESERVE_DISCRIMINATOR = Buffer.from('2bf2ccca1af73b7f', 'hex');
export const KLEND_RESERVE_SIZE = 8624;
/** Scaled fractions (`*_sf`) carry 60 fractional bits. */
export const KLEND_FRACTION_BITS = 60n;

/** The fields of a klend Reserve our legs and readers use, at the IDL's offsets. */
export interface KlendReserve {
  readonly lastUpdateSlot: bigint;
  readonly lendingMarket: PublicKey;
  readonly liquidityMint: PublicKey;
  readonly liquiditySupplyVault: PublicKey;
  readonly availableAmount: bigint;
  readonly borrowedAmountSf: bigint;
  readonly accumulatedProtocolFeesSf: bigint;
  readonly accumulatedReferrerFeesSf: bigint;
  readonly pendingReferrerFeesSf: bigint;
  readonly collateralMint: PublicKey;
  readonly collateralMintTotalSupply: bigint;
}

const u128 = (data: Buffer, at: number): bigint =>
  data.readBigUInt64LE(at) + (data.readBigUInt64LE(at + 8) << 64n);
const key = (data: Buffer, at: number): PublicKey => new PublicKey(data.subarray(at, at + 32));

/**
 * Decodes a klend Reserve (layout of the IDL in @kamino-finance/klend-sdk: `liquidity` at 128,
 * `collateral` at 2560); throws `SolanaBadResponseError` for anything else.
 *
 * @example
 * const reserve = decodeKlendReserve(account.data);
 */
export function decodeKlendReserve(bytes: Uint8Array): KlendReserve {
  const data = Buffer.from(bytes);
  if (
    data.length < KLEND_RESERVE_SIZE ||
    !data.subarray(0, 8).equals(KLEND_RESERVE_DISCRIMINATOR)
  ) {
    throw new SolanaBadResponseError('not a klend Reserve account');
  }
  return {
    lastUpdateSlot: data.readBigUInt64LE(16),
    lendingMarket: key(data, 32),
    liquidityMint: key(data, 128),
    liquiditySupplyVault: key(data, 160),
    availableAmount: data.readBigUInt64LE(224),
    borrowedAmountSf: u128(data, 232),
    accumulatedProtocolFeesSf: u128(data, 344),
    accumulatedReferrerFeesSf: u128(data, 360),
    pendingReferrerFeesSf: u128(data, 376),
    collateralMint: key(data, 2560),
    collateralMintTotalSupply: data.readBigUInt64LE(2592),
  };
}

/**
 * The reserve's total liquidity, scaled by 2^60: available + borrowed − protocol fees − referrer
 * fees − pending referrer fees (klend's `ReserveLiquidity::total_supply`), never below zero.
 */
export function klendTotalLiquiditySf(reserve: KlendReserve): bigint {
  const total =
    (reserve.availableAmount << KLEND_FRACTION_BITS) +
    reserve.borrowedAmountSf -
    reserve.accumulatedProtocolFeesSf -
    reserve.accumulatedReferrerFeesSf -
    reserve.pendingReferrerFeesSf;
  return total > 0n ? total : 0n;
}

/**
 * The cTokens worth at least `liquidity` micros: ceil(liquidity × supply / total), klend's
 * `liquidity_to_collateral_ceil` (1:1 while the reserve is empty).
 */
export function klendCollateralForLiquidity(reserve: KlendReserve, liquidity: bigint): bigint {
  const total = klendTotalLiquiditySf(reserve);
  const supply = reserve.collateralMintTotalSupply;
  if (supply === 0n || total === 0n) return liquidity;
  const numerator = (liquidity * supply) << KLEND_FRACTION_BITS;
  return (numerator + total - 1n) / total;
}
