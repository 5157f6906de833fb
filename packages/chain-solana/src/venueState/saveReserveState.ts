import { PublicKey } from '@solana/web3.js';

/** Save's fixed-point scale (`WAD`, 18 decimals) of `Decimal` and `Rate`. */
export const SAVE_WAD = 1_000_000_000_000_000_000n;

/** The Reserve fields the position reader needs, by the SDK's `ReserveLayout` (619 bytes). */
export interface SaveReserve {
  readonly version: number;
  readonly lastUpdateSlot: bigint;
  readonly lastUpdateStale: boolean;
  readonly lendingMarket: PublicKey;
  readonly liquidityMint: PublicKey;
  readonly liquiditySupply: PublicKey;
  readonly pythOracle: PublicKey;
  readonly switchboardOracle: PublicKey;
  readonly availableAmount: bigint;
  /** Borrowed liquidity with accrued interest, scaled by WAD. */
  readonly borrowedAmountWads: bigint;
  readonly collateralMint: PublicKey;
  readonly collateralMintTotalSupply: bigint;
  /** Interest owed to the protocol, not yet claimed, scaled by WAD. */
  readonly accumulatedProtocolFeesWads: bigint;
}
export const SAVE_RESERVE_LENGTH = 619;

const readU128 = (bytes: Buffer, offset: number): bigint =>
  bytes.readBigUInt64LE(offset) + (bytes.readBigUInt64LE(offset + 8) << 64n);

/**
 * Decodes a Save Reserve account (version 1).
 *
 * @example
 * const reserve = decodeSaveReserve(accountInfo.data);
 */
export function decodeSaveReserve(data: Uint8Array): SaveReserve {
  if (data.length !== SAVE_RESERVE_LENGTH) throw new RangeError('not a Save Reserve (length)');
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const version = bytes.readUInt8(0);
  if (version !== 1) throw new RangeError(`not a Save Reserve (version ${version})`);
  const key = (offset: number) => new PublicKey(bytes.subarray(offset, offset + 32));
  return {
    version,
    lastUpdateSlot: bytes.readBigUInt64LE(1),
    lastUpdateStale: bytes.readUInt8(9) !== 0,
    lendingMarket: key(10),
    liquidityMint: key(42),
    liquiditySupply: key(75),
    pythOracle: key(107),
    switchboardOracle: key(139),
    availableAmount: bytes.readBigUInt64LE(171),
    borrowedAmountWads: readU128(bytes, 179),
    collateralMint: key(227),
    collateralMintTotalSupply: bytes.readBigUInt64LE(259),
    accumulatedProtocolFeesWads: readU128(bytes, 373),
  };
}

/**
 * The reserve's collateral exchange rate as the program computes it (a `Rate`, WAD-scaled
 * cTokens per USDC): collateral supply over total liquidity (available + borrowed − protocol
 * fees), rounded down; 1 while the reserve is empty.
 */
export function saveCollateralRate(reserve: SaveReserve): bigint {
  const totalLiquidityWads =
    reserve.availableAmount * SAVE_WAD +
    reserve.borrowedAmountWads -
    reserve.accumulatedProtocolFeesWads;
  if (reserve.collateralMintTotalSupply === 0n || totalLiquidityWads <= 0n) return SAVE_WAD;
  return (reserve.collateralMintTotalSupply * SAVE_WAD * SAVE_WAD) / totalLiquidityWads;
}

/**
 * USDC micros `collateral` cTokens redeem for at `rate` (the program's `collateral_to_liquidity`:
 * rounded down).
 *
 * @example
 * cTokenValue(4_800_000n, saveCollateralRate(reserve));
 */
export function cTokenValue(collateral: bigint, rate: bigint): bigint {
  return (collateral * SAVE_WAD) / rate;
}

/**
 * cTokens a deposit of `usdcMicros` mints at `rate` (the program's `liquidity_to_collateral`:
 * rounded down).
 */
export function cTokensForDeposit(usdcMicros: bigint, rate: bigint): bigint {
  return (usdcMicros * rate) / SAVE_WAD;
}

/**
 * The cTokens to redeem so the owner receives at least `usdcMicros` at `rate`: the smallest
 * amount whose `cTokenValue` covers it (rounded up: the owner is never paid less than asked; the
 * extra is under one cToken's worth and is paid to the owner), capped at the owner's `balance`.
 */
export function cTokensForUsdc(usdcMicros: bigint, rate: bigint, balance: bigint): bigint {
  // cTokenValue(c) = floor(c × WAD / rate) ≥ usdc  ⇔  c × WAD ≥ usdc × rate  ⇔  c ≥ ⌈usdc × rate / WAD⌉.
  const collateral = (usdcMicros * rate + SAVE_WAD - 1n) / SAVE_WAD;
  return collateral < balance ? collateral : balance;
}
