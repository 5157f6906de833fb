import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { PublicKey } from '@solana/web3.js';
import { u64Amount } from './u64Amount';
import { accountMeta as meta } from './accountMeta';

/**
 * Jupiter Lend Earn (the `lending` program, IDL in `@jup-ag/lend`): Anchor discriminators
 * `sha256("global:<name>")[0..8]` of the instructions we call.
 */
export const JUPITER_LEND_DISCRIMINATORS = {
  deposit: Buffer.from([242, 35, 198, 137, 82, 225, 242, 182]),
  redeem: Buffer.from([184, 12, 86, 149, 70, 196, 97, 225]),
} as const;

/**
 * The accounts of one Jupiter Lend Earn market (one asset, e.g. USDC → jlUSDC), as configured:
 * every one is a PDA or ATA of the lending or liquidity program (see `docs/venues/solana.md`).
 */
export interface JupiterLendMarketAccounts {
  /** The lending program (`jup3YeL8…`). */
  readonly lendingProgram: PublicKey;
  /** The liquidity program (`jupeiUmn…`) the lending program supplies into. */
  readonly liquidityProgram: PublicKey;
  /** The underlying asset (USDC). */
  readonly mint: PublicKey;
  /** The lending token (jlUSDC), the receipt. */
  readonly fTokenMint: PublicKey;
  /** PDA `["lending", mint, fTokenMint]`: the market's state (exchange prices). */
  readonly lending: PublicKey;
  /** PDA `["lending_admin"]`. */
  readonly lendingAdmin: PublicKey;
  /** Liquidity PDA `["reserve", mint]`. */
  readonly supplyTokenReservesLiquidity: PublicKey;
  /** Liquidity PDA `["user_supply_position", mint, lending]`. */
  readonly lendingSupplyPositionOnLiquidity: PublicKey;
  /** Liquidity PDA `["rate_model", mint]`. */
  readonly rateModel: PublicKey;
  /** The liquidity PDA `["liquidity"]`'s ATA of `mint`: where the asset sits. */
  readonly vault: PublicKey;
  /** Liquidity PDA `["liquidity"]`. */
  readonly liquidity: PublicKey;
  /** Lending PDA `["lending_rewards_rate_model", mint]`. */
  readonly rewardsRateModel: PublicKey;
  /** Liquidity PDA `["user_claim", lendingAdmin, mint]` (withdrawals only). */
  readonly claimAccount: PublicKey;
}

/** The owner's side of a deposit or redeem. */
export interface JupiterLendOwnerAccounts {
  /** The owner: signer and payer. */
  readonly signer: PublicKey;
  /** The owner's USDC account. */
  readonly ownerAsset: PublicKey;
  /** The owner's jlUSDC account (receives on deposit, burns from on redeem). */
  readonly ownerFToken: PublicKey;
}

function data(discriminator: Buffer, amount: bigint, field: string): Buffer {
  const out = Buffer.alloc(16);
  discriminator.copy(out, 0);
  out.writeBigUInt64LE(u64Amount(amount, field), 8);
  return out;
}

/**
 * `deposit(assets: u64)`: `assets` USDC from the owner into the market, jlUSDC minted to the owner
 * at the market's token exchange price (shares rounded down by the program). 17 accounts in the
 * IDL's order.
 *
 * @example
 * jupiterLendDepositInstruction(market, owner, 5_000_000n);
 */
export function jupiterLendDepositInstruction(
  market: JupiterLendMarketAccounts,
  owner: JupiterLendOwnerAccounts,
  assets: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: market.lendingProgram,
    keys: [
      meta(owner.signer, true, true),
      meta(owner.ownerAsset, true),
      meta(owner.ownerFToken, true),
      meta(market.mint, false),
      meta(market.lendingAdmin, false),
      meta(market.lending, true),
      meta(market.fTokenMint, true),
      meta(market.supplyTokenReservesLiquidity, true),
      meta(market.lendingSupplyPositionOnLiquidity, true),
      meta(market.rateModel, false),
      meta(market.vault, true),
      meta(market.liquidity, true),
      meta(market.liquidityProgram, true),
      meta(market.rewardsRateModel, false),
      meta(TOKEN_PROGRAM_ID, false),
      meta(ASSOCIATED_TOKEN_PROGRAM_ID, false),
      meta(SystemProgram.programId, false),
    ],
    data: data(JUPITER_LEND_DISCRIMINATORS.deposit, assets, 'assets'),
  });
}

/**
 * `redeem(shares: u64)`: burns `shares` jlUSDC of the owner and pays the USDC they are worth at
 * the market's token exchange price (rounded down by the program) to the owner. 18 accounts in
 * the IDL's order.
 *
 * @example
 * jupiterLendRedeemInstruction(market, owner, jlUsdcSharesForUsdc(5_000_000n, price));
 */
export function jupiterLendRedeemInstruction(
  market: JupiterLendMarketAccounts,
  owner: JupiterLendOwnerAccounts,
  shares: bigint,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: market.lendingProgram,
    keys: [
      meta(owner.signer, true, true),
      meta(owner.ownerFToken, true),
      meta(owner.ownerAsset, true),
      meta(market.lendingAdmin, false),
      meta(market.lending, true),
      meta(market.mint, false),
      meta(market.fTokenMint, true),
      meta(market.supplyTokenReservesLiquidity, true),
      meta(market.lendingSupplyPositionOnLiquidity, true),
      meta(market.rateModel, false),
      meta(market.vault, true),
      meta(market.claimAccount, true),
      meta(market.liquidity, true),
      meta(market.liquidityProgram, true),
      meta(market.rewardsRateModel, false),
      meta(TOKEN_PROGRAM_ID, false),
      meta(ASSOCIATED_TOKEN_PROGRAM_ID, false),
      meta(SystemProgram.programId, false),
    ],
    data: data(JUPITER_LEND_DISCRIMINATORS.redeem, shares, 'shares'),
  });
}
