import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { Connection, PublicKey } from '@solana/web3.js';
import { SolanaBadResponseError } from '../describeRpcFailure';
import {
  jupiterLendDepositInstruction,
  jupiterLendRedeemInstruction,
} from '../instructions/jupiterLendInstructions';
import type { JupiterLendMarketAccounts } from '../instructions/jupiterLendInstructions';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  JUPITER_EXCHANGE_PRICES_PRECISION,
  decodeJupiterLendLending,
  decodeJupiterLendTokenReserve,
  jlTokensForUsdc,
  jupiterLendExchangePrice,
} from '../venueState/jupiterLendState';
import { receiptsToRedeem, venueId } from './receiptsToRedeem';
import { SOLANA_VENUE_LAYOUT } from './solanaVenueProtocol';
import type { SolanaVenueProtocol } from './solanaVenueProtocol';

const ID_NAMES = [
  'lendingProgram',
  'liquidityProgram',
  'fTokenMint',
  'lending',
  'lendingAdmin',
  'supplyTokenReservesLiquidity',
  'lendingSupplyPositionOnLiquidity',
  'rateModel',
  'vault',
  'liquidity',
  'rewardsRateModel',
  'claimAccount',
] as const;

function marketOf(
  ids: Readonly<Record<string, PublicKey>>,
  usdcMint: PublicKey,
): JupiterLendMarketAccounts {
  const id = (name: (typeof ID_NAMES)[number]) => venueId(ids, name);
  return {
    lendingProgram: id('lendingProgram'),
    liquidityProgram: id('liquidityProgram'),
    mint: usdcMint,
    fTokenMint: id('fTokenMint'),
    lending: id('lending'),
    lendingAdmin: id('lendingAdmin'),
    supplyTokenReservesLiquidity: id('supplyTokenReservesLiquidity'),
    lendingSupplyPositionOnLiquidity: id('lendingSupplyPositionOnLiquidity'),
    rateModel: id('rateModel'),
    vault: id('vault'),
    liquidity: id('liquidity'),
    rewardsRateModel: id('rewardsRateModel'),
    claimAccount: id('claimAccount'),
  };
}

/**
 * The jlToken price (12 decimals) from the Lending account and the liquidity layer's
 * TokenReserve, read in one call and checked against the configured ids (fails closed).
 */
async function readPrice(
  connection: Connection,
  market: Pick<
    JupiterLendMarketAccounts,
    | 'lending'
    | 'lendingProgram'
    | 'liquidityProgram'
    | 'supplyTokenReservesLiquidity'
    | 'fTokenMint'
  >,
  usdcMint: PublicKey | undefined,
): Promise<bigint> {
  const [lendingAccount, reserveAccount] = await connection.getMultipleAccountsInfo(
    [market.lending, market.supplyTokenReservesLiquidity],
    'confirmed',
  );
  if (!lendingAccount?.owner.equals(market.lendingProgram)) {
    throw new SolanaBadResponseError(`${market.lending.toBase58()} is not a Jupiter Lend market`);
  }
  if (!reserveAccount?.owner.equals(market.liquidityProgram)) {
    throw new SolanaBadResponseError(
      `${market.supplyTokenReservesLiquidity.toBase58()} is not a Jupiter Lend liquidity reserve`,
    );
  }
  const lending = decodeJupiterLendLending(lendingAccount.data);
  const reserve = decodeJupiterLendTokenReserve(reserveAccount.data);
  if (
    !lending.fTokenMint.equals(market.fTokenMint) ||
    !lending.tokenReservesLiquidity.equals(market.supplyTokenReservesLiquidity) ||
    !reserve.mint.equals(lending.mint) ||
    (usdcMint && !lending.mint.equals(usdcMint))
  ) {
    throw new SolanaBadResponseError(
      `Jupiter Lend market ${market.lending.toBase58()} is not the configured USDC market`,
    );
  }
  return jupiterLendExchangePrice(lending, reserve);
}

/**
 * Jupiter Lend Earn through our router (layout `layouts/jupiter_lend.h`): a deposit is the
 * lending program's `deposit(assets)`, a withdrawal `redeem(shares)` of jlUSDC sized for the USDC
 * asked (rounded up); the receipt is jlUSDC in the owner's associated token account. Value:
 * jlUSDC × the token exchange price the program would write now (docs/venues/solana.md).
 */
export const JUPITER_LEND_PROTOCOL: SolanaVenueProtocol = {
  name: 'Jupiter Lend Earn',
  layout: SOLANA_VENUE_LAYOUT.jupiterLend,
  idNames: ID_NAMES,
  units: { deposit: 'liquidity', withdraw: 'shares' },
  // A deposit takes exactly its amount; a redeem pays its jlUSDC rounded down (the lending
  // program's `redeem_internal` through `preview_redeem`, `convert_to_assets` unrounded-up), and
  // the leg redeems the jlUSDC worth at least the amount (docs/venues/solana.md, Rounding).
  withdrawRounding: 'receipt',
  receiptMint: (ids) => venueId(ids, 'fTokenMint'),
  buildCall: async (input) => {
    const { action, owner, amountMicros, usdcMint, ids } = input;
    const market = marketOf(ids, usdcMint);
    const accounts = {
      signer: owner,
      ownerAsset: associatedTokenAccount(owner, usdcMint),
      ownerFToken: associatedTokenAccount(owner, market.fTokenMint),
    };
    const common = { adapter: market.lending, venueProgram: market.lendingProgram };
    if (action === 'deposit') {
      const { keys } = jupiterLendDepositInstruction(market, accounts, amountMicros);
      return {
        ...common,
        setup: [
          createAssociatedTokenAccountIdempotentInstruction(
            owner,
            accounts.ownerFToken,
            owner,
            market.fTokenMint,
          ),
        ],
        argument: amountMicros,
        venueAccounts: keys,
      };
    }
    const shares = await receiptsToRedeem(input, {
      receipt: 'jlUSDC',
      receiptMint: market.fTokenMint,
      read: (connection) => readPrice(connection, market, usdcMint),
      size: (price, amount, held) => jlTokensForUsdc(amount, price, held),
    });
    if (typeof shares !== 'bigint') return shares;
    const { keys } = jupiterLendRedeemInstruction(market, accounts, shares);
    return {
      ...common,
      setup: [
        createAssociatedTokenAccountIdempotentInstruction(
          owner,
          accounts.ownerAsset,
          owner,
          usdcMint,
        ),
      ],
      argument: shares,
      venueAccounts: keys,
    };
  },
  readExchangeRate: async (connection, ids, usdcMint) => {
    const market = {
      lending: venueId(ids, 'lending'),
      lendingProgram: venueId(ids, 'lendingProgram'),
      liquidityProgram: venueId(ids, 'liquidityProgram'),
      supplyTokenReservesLiquidity: venueId(ids, 'supplyTokenReservesLiquidity'),
      fTokenMint: venueId(ids, 'fTokenMint'),
    };
    const price = await readPrice(connection, market, usdcMint);
    return { liquidity: price, supply: JUPITER_EXCHANGE_PRICES_PRECISION };
  },
};
