import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { u64Amount } from './u64Amount';
import { accountMeta as meta } from './accountMeta';

/** Save (Solend) token-lending instruction tags (first data byte) of the instructions we call. */
export const SAVE_INSTRUCTION_TAGS = {
  refreshReserve: 3,
  depositReserveLiquidity: 4,
  redeemReserveCollateral: 5,
} as const;

/** One Save reserve (e.g. the main pool's USDC reserve), as configured. */
export interface SaveReserveAccounts {
  /** The lending program (`So1endDq…`). */
  readonly program: PublicKey;
  /** The lending market the reserve belongs to. */
  readonly lendingMarket: PublicKey;
  /** The reserve account (its state: liquidity, borrows, fees, collateral supply). */
  readonly reserve: PublicKey;
  /** The reserve's liquidity supply token account (where USDC sits). */
  readonly liquiditySupply: PublicKey;
  /** The reserve's collateral mint (the cToken, our receipt). */
  readonly collateralMint: PublicKey;
  /** The reserve's Pyth price account (read by `refresh_reserve`). */
  readonly pythOracle: PublicKey;
  /** The reserve's Switchboard feed (read by `refresh_reserve`). */
  readonly switchboardOracle: PublicKey;
}

/** The owner's side of a deposit or redeem. */
export interface SaveOwnerAccounts {
  /** The owner: the user transfer authority (signer). */
  readonly owner: PublicKey;
  /** The owner's USDC account. */
  readonly ownerLiquidity: PublicKey;
  /** The owner's cToken account. */
  readonly ownerCollateral: PublicKey;
}

/**
 * The lending market authority: the program's PDA with the market's address as its one seed.
 *
 * @example
 * saveLendingMarketAuthority(program, lendingMarket);
 */
export function saveLendingMarketAuthority(
  program: PublicKey,
  lendingMarket: PublicKey,
): PublicKey {
  return PublicKey.findProgramAddressSync([lendingMarket.toBuffer()], program)[0];
}

function data(tag: number, amount: bigint, field: string): Buffer {
  const out = Buffer.alloc(9);
  out.writeUInt8(tag, 0);
  out.writeBigUInt64LE(u64Amount(amount, field), 1);
  return out;
}

/**
 * `RefreshReserve` (tag 3): accrues the reserve's interest up to the current slot. Deposits and
 * redeems fail with `ReserveStale` unless the reserve was refreshed in the same slot, so it goes
 * right before them in the same transaction (permissionless: no signer).
 */
export function saveRefreshReserveInstruction(
  reserve: SaveReserveAccounts,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [
      meta(reserve.reserve, true),
      meta(reserve.pythOracle, false),
      meta(reserve.switchboardOracle, false),
    ],
    data: Buffer.from([SAVE_INSTRUCTION_TAGS.refreshReserve]),
  });
}

/**
 * `DepositReserveLiquidity { liquidity_amount: u64 }` (tag 4): `liquidityAmount` USDC from the
 * owner into the reserve, cTokens minted to the owner at the reserve's exchange rate (rounded
 * down by the program). 9 accounts.
 *
 * @example
 * saveDepositReserveLiquidityInstruction(reserve, owner, 5_000_000n);
 */
export function saveDepositReserveLiquidityInstruction(
  reserve: SaveReserveAccounts,
  owner: SaveOwnerAccounts,
  liquidityAmount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [
      meta(owner.ownerLiquidity, true),
      meta(owner.ownerCollateral, true),
      meta(reserve.reserve, true),
      meta(reserve.liquiditySupply, true),
      meta(reserve.collateralMint, true),
      meta(reserve.lendingMarket, false),
      meta(saveLendingMarketAuthority(reserve.program, reserve.lendingMarket), false),
      meta(owner.owner, false, true),
      meta(TOKEN_PROGRAM_ID, false),
    ],
    data: data(SAVE_INSTRUCTION_TAGS.depositReserveLiquidity, liquidityAmount, 'liquidityAmount'),
  });
}

/**
 * `RedeemReserveCollateral { collateral_amount: u64 }` (tag 5): burns `collateralAmount` cTokens
 * of the owner and pays the USDC they are worth (rounded down by the program). 9 accounts; the
 * lending market is writable here (the program's own account list says so).
 *
 * @example
 * saveRedeemReserveCollateralInstruction(reserve, owner, cTokensForUsdc(5_000_000n, rate));
 */
export function saveRedeemReserveCollateralInstruction(
  reserve: SaveReserveAccounts,
  owner: SaveOwnerAccounts,
  collateralAmount: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: reserve.program,
    keys: [
      meta(owner.ownerCollateral, true),
      meta(owner.ownerLiquidity, true),
      meta(reserve.reserve, true),
      meta(reserve.collateralMint, true),
      meta(reserve.liquiditySupply, true),
      meta(reserve.lendingMarket, true),
      meta(saveLendingMarketAuthority(reserve.program, reserve.lendingMarket), false),
      meta(owner.owner, false, true),
      meta(TOKEN_PROGRAM_ID, false),
    ],
    data: data(SAVE_INSTRUCTION_TAGS.redeemReserveCollateral, collateralAmount, 'collateralAmount'),
  });
}
