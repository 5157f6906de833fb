import { PublicKey } from '@solana/web3.js';

/** Jupiter Lend's exchange prices are fixed-point with 12 decimals. */
export const JUPITER_EXCHANGE_PRICES_PRECISION = 1_000_000_000_000n;
/** The lending program's return-percent precision (`1e14` = 100 %) in its price update. */
const RETURN_PERCENT_PRECISION = 100_000_000_000_000n;

/** Anchor account discriminators (`sha256("account:<Name>")[0..8]`) from the lending IDL. */
export const JUPITER_LEND_ACCOUNT_DISCRIMINATORS = {
  Lending: Buffer.from([135, 199, 82, 16, 249, 131, 182, 241]),
  TokenReserve: Buffer.from([21, 18, 59, 135, 120, 20, 31, 12]),
} as const;

/** A lending program `Lending` account (Borsh, 196 bytes with its discriminator). */
export interface JupiterLendLending {
  readonly mint: PublicKey;
  readonly fTokenMint: PublicKey;
  readonly lendingId: number;
  readonly decimals: number;
  readonly rewardsRateModel: PublicKey;
  /** The liquidity layer's supply exchange price when `tokenExchangePrice` was last written. */
  readonly liquidityExchangePrice: bigint;
  /** jlToken → asset price (12 decimals), with rewards, as last written. */
  readonly tokenExchangePrice: bigint;
  readonly lastUpdateTimestamp: bigint;
  readonly tokenReservesLiquidity: PublicKey;
  readonly supplyPositionOnLiquidity: PublicKey;
  readonly bump: number;
}
export const JUPITER_LEND_LENDING_LENGTH = 196;

/** The fields of the liquidity program's `TokenReserve` (bytemuck, packed) the price needs. */
export interface JupiterLendTokenReserve {
  readonly mint: PublicKey;
  readonly vault: PublicKey;
  readonly lastUpdateTimestamp: bigint;
  /** The liquidity layer's supply exchange price (12 decimals), as last written. */
  readonly supplyExchangePrice: bigint;
  readonly borrowExchangePrice: bigint;
}
export const JUPITER_LEND_TOKEN_RESERVE_LENGTH = 192;

function checkDiscriminator(data: Uint8Array, expected: Buffer, name: string): Buffer {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!bytes.subarray(0, 8).equals(expected)) {
    throw new RangeError(`not a Jupiter Lend ${name} account (discriminator)`);
  }
  return bytes;
}

/**
 * Decodes a `Lending` account by the lending IDL's layout.
 *
 * @example
 * const lending = decodeJupiterLendLending(accountInfo.data);
 */
export function decodeJupiterLendLending(data: Uint8Array): JupiterLendLending {
  if (data.length < JUPITER_LEND_LENDING_LENGTH) throw new RangeError('Lending account too short');
  const bytes = checkDiscriminator(data, JUPITER_LEND_ACCOUNT_DISCRIMINATORS.Lending, 'Lending');
  const key = (offset: number) => new PublicKey(bytes.subarray(offset, offset + 32));
  return {
    mint: key(8),
    fTokenMint: key(40),
    lendingId: bytes.readUInt16LE(72),
    decimals: bytes.readUInt8(74),
    rewardsRateModel: key(75),
    liquidityExchangePrice: bytes.readBigUInt64LE(107),
    tokenExchangePrice: bytes.readBigUInt64LE(115),
    lastUpdateTimestamp: bytes.readBigUInt64LE(123),
    tokenReservesLiquidity: key(131),
    supplyPositionOnLiquidity: key(163),
    bump: bytes.readUInt8(195),
  };
}

/**
 * Decodes the liquidity program's `TokenReserve` account (packed C layout in the IDL).
 *
 * @example
 * const reserve = decodeJupiterLendTokenReserve(accountInfo.data);
 */
export function decodeJupiterLendTokenReserve(data: Uint8Array): JupiterLendTokenReserve {
  if (data.length < JUPITER_LEND_TOKEN_RESERVE_LENGTH) {
    throw new RangeError('TokenReserve account too short');
  }
  const bytes = checkDiscriminator(
    data,
    JUPITER_LEND_ACCOUNT_DISCRIMINATORS.TokenReserve,
    'TokenReserve',
  );
  return {
    mint: new PublicKey(bytes.subarray(8, 40)),
    vault: new PublicKey(bytes.subarray(40, 72)),
    lastUpdateTimestamp: bytes.readBigUInt64LE(78),
    supplyExchangePrice: bytes.readBigUInt64LE(86),
    borrowExchangePrice: bytes.readBigUInt64LE(94),
  };
}

/**
 * The jlToken exchange price the lending program would write now, without rewards: the last
 * written price grown by the liquidity layer's supply price since it was written
 * (`new = old + old × ((liquidity − old liquidity) × 1e14 / old liquidity) / 1e14`, each step
 * rounded down, as the program and `@jup-ag/lend`'s `getNewExchangePrice` compute it). Rewards
 * (a rewards rate model over time) are left out: they only ever add, so the price read is never
 * above what a redeem would pay.
 */
export function jupiterLendExchangePrice(
  lending: JupiterLendLending,
  tokenReserve: JupiterLendTokenReserve,
): bigint {
  const old = lending.tokenExchangePrice;
  const oldLiquidity = lending.liquidityExchangePrice;
  if (oldLiquidity === 0n || tokenReserve.supplyExchangePrice <= oldLiquidity) return old;
  const returnPercent =
    ((tokenReserve.supplyExchangePrice - oldLiquidity) * RETURN_PERCENT_PRECISION) / oldLiquidity;
  return old + (old * returnPercent) / RETURN_PERCENT_PRECISION;
}

/**
 * USDC micros `shares` jlTokens are worth at `price`, rounded down (as `redeem` pays).
 *
 * @example
 * jlTokenValue(4_950_000n, 1_010_000_000_000n); // 4_999_500n
 */
export function jlTokenValue(shares: bigint, price: bigint): bigint {
  return (shares * price) / JUPITER_EXCHANGE_PRICES_PRECISION;
}

/**
 * The jlTokens to redeem so the owner receives at least `usdcMicros` at `price`: rounded up (the
 * owner is never paid less than asked; the extra is under one share's worth and is paid to the
 * owner), capped at the owner's `balance`.
 *
 * @example
 * jlTokensForUsdc(5_000_000n, 1_010_000_000_000n, 10_000_000n); // 4_950_496n
 */
export function jlTokensForUsdc(usdcMicros: bigint, price: bigint, balance: bigint): bigint {
  if (price <= 0n) throw new RangeError('price must be positive');
  const shares = (usdcMicros * JUPITER_EXCHANGE_PRICES_PRECISION + price - 1n) / price;
  return shares < balance ? shares : balance;
}
