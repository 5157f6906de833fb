import {
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
} from '@solana/spl-token';
import { PublicKey, SYSVAR_INSTRUCTIONS_PUBKEY } from '@solana/web3.js';
import type { AccountMeta, Connection } from '@solana/web3.js';
import type { Blocker } from '@yieldrouter/schemas';
import { SolanaBadResponseError, describeRpcFailure } from '../describeRpcFailure';
import { readAssociatedTokenAmount } from '../readAssociatedTokenAmount';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  KLEND_FRACTION_BITS,
  decodeKlendReserve,
  klendCollateralForLiquidity,
  klendTotalLiquiditySf,
} from './klendReserve';
import type { KlendReserve } from './klendReserve';
import { SOLANA_VENUE_LAYOUT } from './solanaVenueProtocol';
import type { SolanaVenueProtocol, VenueCallInput } from './solanaVenueProtocol';
import { accountMeta as meta } from '../instructions/accountMeta';
import { venueId as key } from './receiptsToRedeem';

/** klend's lending market authority, the PDA `["lma", lending market]` of the klend program. */
export function klendLendingMarketAuthority(
  program: PublicKey,
  lendingMarket: PublicKey,
): PublicKey {
  return PublicKey.findProgramAddressSync(
    [Buffer.from('lma'), lendingMarket.toBuffer()],
    program,
  )[0];
}

/** The accounts both klend instructions name, from the venue's ids and the owner. */
interface KlendAccounts {
  readonly owner: PublicKey;
  readonly program: PublicKey;
  readonly lendingMarket: PublicKey;
  readonly reserve: PublicKey;
  readonly liquidityMint: PublicKey;
  readonly liquiditySupply: PublicKey;
  readonly collateralMint: PublicKey;
  readonly ownerLiquidity: PublicKey;
  readonly ownerCollateral: PublicKey;
}

/**
 * `deposit_reserve_liquidity` accounts in the IDL's order and flags (klend-sdk's
 * `depositReserveLiquidity`): owner, reserve, lending_market, lending_market_authority,
 * reserve_liquidity_mint, reserve_liquidity_supply, reserve_collateral_mint,
 * user_source_liquidity, user_destination_collateral, collateral_token_program,
 * liquidity_token_program, instruction_sysvar_account.
 */
export function klendDepositAccounts(accounts: KlendAccounts): AccountMeta[] {
  return [
    meta(accounts.owner, false, true),
    meta(accounts.reserve, true),
    meta(accounts.lendingMarket, false),
    meta(klendLendingMarketAuthority(accounts.program, accounts.lendingMarket), false),
    meta(accounts.liquidityMint, false),
    meta(accounts.liquiditySupply, true),
    meta(accounts.collateralMint, true),
    meta(accounts.ownerLiquidity, true),
    meta(accounts.ownerCollateral, true),
    meta(TOKEN_PROGRAM_ID, false),
    meta(TOKEN_PROGRAM_ID, false),
    meta(SYSVAR_INSTRUCTIONS_PUBKEY, false),
  ];
}

/**
 * `redeem_reserve_collateral` accounts in the IDL's order and flags (klend-sdk's
 * `redeemReserveCollateral`): owner, lending_market, reserve, lending_market_authority,
 * reserve_liquidity_mint, reserve_collateral_mint, reserve_liquidity_supply,
 * user_source_collateral, user_destination_liquidity, collateral_token_program,
 * liquidity_token_program, instruction_sysvar_account.
 */
export function klendRedeemAccounts(accounts: KlendAccounts): AccountMeta[] {
  return [
    meta(accounts.owner, false, true),
    meta(accounts.lendingMarket, false),
    meta(accounts.reserve, true),
    meta(klendLendingMarketAuthority(accounts.program, accounts.lendingMarket), false),
    meta(accounts.liquidityMint, false),
    meta(accounts.collateralMint, true),
    meta(accounts.liquiditySupply, true),
    meta(accounts.ownerCollateral, true),
    meta(accounts.ownerLiquidity, true),
    meta(TOKEN_PROGRAM_ID, false),
    meta(TOKEN_PROGRAM_ID, false),
    meta(SYSVAR_INSTRUCTIONS_PUBKEY, false),
  ];
}

/** Reads and decodes the reserve, checked against the venue's configured ids (fails closed). */
async function readReserve(
  connection: Connection,
  ids: Readonly<Record<string, PublicKey>>,
  usdcMint: PublicKey | undefined,
): Promise<KlendReserve> {
  const address = key(ids, 'reserve');
  const account = await connection.getAccountInfo(address, 'confirmed');
  if (!account?.owner.equals(key(ids, 'klendProgram'))) {
    throw new SolanaBadResponseError(`reserve ${address.toBase58()} is not a klend account`);
  }
  const reserve = decodeKlendReserve(account.data);
  const mismatch = [
    ['lendingMarket', reserve.lendingMarket],
    ['reserveLiquiditySupply', reserve.liquiditySupplyVault],
    ['reserveCollateralMint', reserve.collateralMint],
  ].find(([name, onChain]) => !key(ids, name as string).equals(onChain as PublicKey));
  if (mismatch) {
    throw new SolanaBadResponseError(
      `reserve ${address.toBase58()}: configured ids.${String(mismatch[0])} is not the reserve's`,
    );
  }
  if (usdcMint && !reserve.liquidityMint.equals(usdcMint)) {
    throw new SolanaBadResponseError(`reserve ${address.toBase58()} does not lend USDC`);
  }
  return reserve;
}

/**
 * The cTokens a withdrawal of `amountMicros` redeems: ceil(amount × supply / total), so the
 * owner receives at least the amount asked (klend pays floor(cTokens × total / supply)), capped
 * at the cTokens in the owner's cToken account the leg redeems from (a full exit). Blocked when
 * the reserve or that account cannot be read.
 */
async function collateralToRedeem(
  input: VenueCallInput,
): Promise<bigint | { readonly blockers: readonly Blocker[] }> {
  const { context, ids, owner, amountMicros, usdcMint } = input;
  if (context.rpc.status !== 'ok') {
    return { blockers: [{ code: 'rpc_unavailable', message: `Solana: ${context.rpc.detail}` }] };
  }
  try {
    const [reserve, held] = await Promise.all([
      readReserve(context.rpc.connection, ids, usdcMint),
      readAssociatedTokenAmount(context.rpc.connection, owner, key(ids, 'reserveCollateralMint')),
    ]);
    const wanted = klendCollateralForLiquidity(reserve, amountMicros);
    return wanted < held ? wanted : held;
  } catch (error) {
    const failure = describeRpcFailure(error, 'klend reserve');
    return {
      blockers: [
        { code: 'rpc_unavailable', message: failure.detail, details: { reason: failure.reason } },
      ],
    };
  }
}

/**
 * Kamino Lend (klend) through our router (layout `layouts/klend.h`): a deposit is klend's
 * `deposit_reserve_liquidity(liquidity_amount)`, a withdrawal `redeem_reserve_collateral(
 * collateral_amount)`; the receipt is the reserve's collateral token (cUSDC) in the owner's
 * associated token account. Both instructions refresh the reserve's interest themselves
 * (klend ≥ 1.16), so the leg carries no `refresh_reserve`. Value: cTokens × total liquidity /
 * collateral supply, read from the Reserve account (docs/venues/solana.md).
 */
export const KLEND_PROTOCOL: SolanaVenueProtocol = {
  name: 'Kamino Lend',
  layout: SOLANA_VENUE_LAYOUT.klend,
  idNames: [
    'klendProgram',
    'lendingMarket',
    'reserve',
    'reserveLiquiditySupply',
    'reserveCollateralMint',
  ],
  units: { deposit: 'liquidity', withdraw: 'shares' },
  // Floored cTokens, their liquidity taken rounded up (klend's
  // Reserve::compute_depositable_amount_and_minted_collateral).
  depositRounding: 'receipt',
  // The cTokens worth at least the amount, paid rounded down (klend's Reserve::redeem_collateral).
  withdrawRounding: 'receipt',
  receiptMint: (ids) => key(ids, 'reserveCollateralMint'),
  buildCall: async (input) => {
    const { action, owner, amountMicros, usdcMint, ids } = input;
    const collateralMint = key(ids, 'reserveCollateralMint');
    const accounts: KlendAccounts = {
      owner,
      program: key(ids, 'klendProgram'),
      lendingMarket: key(ids, 'lendingMarket'),
      reserve: key(ids, 'reserve'),
      liquidityMint: usdcMint,
      liquiditySupply: key(ids, 'reserveLiquiditySupply'),
      collateralMint,
      ownerLiquidity: associatedTokenAccount(owner, usdcMint),
      ownerCollateral: associatedTokenAccount(owner, collateralMint),
    };
    const common = { adapter: accounts.reserve, venueProgram: accounts.program };
    if (action === 'deposit') {
      return {
        ...common,
        setup: [
          createAssociatedTokenAccountIdempotentInstruction(
            owner,
            accounts.ownerCollateral,
            owner,
            collateralMint,
          ),
        ],
        argument: amountMicros,
        venueAccounts: klendDepositAccounts(accounts),
      };
    }
    const collateral = await collateralToRedeem(input);
    if (typeof collateral !== 'bigint') return collateral;
    if (collateral === 0n) {
      return {
        blockers: [
          {
            code: 'nothing_staked',
            message: `the owner holds no cTokens of klend reserve ${accounts.reserve.toBase58()}`,
            field: 'amountMicros',
          },
        ],
      };
    }
    return {
      ...common,
      setup: [
        createAssociatedTokenAccountIdempotentInstruction(
          owner,
          accounts.ownerLiquidity,
          owner,
          usdcMint,
        ),
      ],
      argument: collateral,
      venueAccounts: klendRedeemAccounts(accounts),
    };
  },
  readExchangeRate: async (connection, ids, usdcMint) => {
    const reserve = await readReserve(connection, ids, usdcMint);
    const supply = reserve.collateralMintTotalSupply;
    return { liquidity: klendTotalLiquiditySf(reserve), supply: supply << KLEND_FRACTION_BITS };
  },
};
