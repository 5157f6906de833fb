import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { Connection, PublicKey } from '@solana/web3.js';
import { SolanaBadResponseError } from '../describeRpcFailure';
import {
  saveDepositReserveLiquidityInstruction,
  saveRedeemReserveCollateralInstruction,
  saveRefreshReserveInstruction,
} from '../instructions/saveInstructions';
import type { SaveReserveAccounts } from '../instructions/saveInstructions';
import { associatedTokenAccount } from '../tokenAccounts';
import {
  SAVE_WAD,
  cTokensForUsdc,
  decodeSaveReserve,
  saveCollateralRate,
} from '../venueState/saveReserveState';
import { receiptsToRedeem, venueId } from './receiptsToRedeem';
import { SOLANA_VENUE_LAYOUT } from './solanaVenueProtocol';
import type { SolanaVenueProtocol } from './solanaVenueProtocol';

const ID_NAMES = [
  'saveProgram',
  'lendingMarket',
  'reserve',
  'reserveLiquiditySupply',
  'reserveCollateralMint',
  'pythOracle',
  'switchboardOracle',
] as const;

function reserveOf(ids: Readonly<Record<string, PublicKey>>): SaveReserveAccounts {
  return {
    program: venueId(ids, 'saveProgram'),
    lendingMarket: venueId(ids, 'lendingMarket'),
    reserve: venueId(ids, 'reserve'),
    liquiditySupply: venueId(ids, 'reserveLiquiditySupply'),
    collateralMint: venueId(ids, 'reserveCollateralMint'),
    pythOracle: venueId(ids, 'pythOracle'),
    switchboardOracle: venueId(ids, 'switchboardOracle'),
  };
}

/** The reserve's collateral rate (WAD-scaled cTokens per USDC micro), checked against the ids. */
async function readRate(
  connection: Connection,
  accounts: SaveReserveAccounts,
  usdcMint: PublicKey | undefined,
): Promise<bigint> {
  const account = await connection.getAccountInfo(accounts.reserve, 'confirmed');
  if (!account?.owner.equals(accounts.program)) {
    throw new SolanaBadResponseError(`${accounts.reserve.toBase58()} is not a Save reserve`);
  }
  const reserve = decodeSaveReserve(account.data);
  if (usdcMint && !reserve.liquidityMint.equals(usdcMint)) {
    throw new SolanaBadResponseError(
      `Save reserve ${accounts.reserve.toBase58()} is not the configured USDC reserve`,
    );
  }
  // The oracles too: RefreshReserve refuses others, and Save may rotate a reserve's oracles.
  const mismatch = (
    [
      ['lendingMarket', accounts.lendingMarket, reserve.lendingMarket],
      ['reserveLiquiditySupply', accounts.liquiditySupply, reserve.liquiditySupply],
      ['reserveCollateralMint', accounts.collateralMint, reserve.collateralMint],
      ['pythOracle', accounts.pythOracle, reserve.pythOracle],
      ['switchboardOracle', accounts.switchboardOracle, reserve.switchboardOracle],
    ] as const
  ).find(([, configured, onChain]) => !configured.equals(onChain));
  if (mismatch) {
    throw new SolanaBadResponseError(
      `Save reserve ${accounts.reserve.toBase58()}: configured ids.${mismatch[0]} is not the reserve's`,
    );
  }
  return saveCollateralRate(reserve);
}

/**
 * Save (Solend) through our router (layout `layouts/save.h`): a deposit is
 * `DepositReserveLiquidity`, a withdrawal `RedeemReserveCollateral` of cTokens sized for the USDC
 * asked (rounded up), each after `RefreshReserve` in the same transaction (Save refuses a stale
 * reserve); the receipt is the reserve's cToken in the owner's associated token account. Value:
 * cTokens × (available + borrowed − protocol fees) / collateral supply, as last refreshed.
 */
export const SAVE_PROTOCOL: SolanaVenueProtocol = {
  name: 'Save',
  layout: SOLANA_VENUE_LAYOUT.save,
  idNames: ID_NAMES,
  units: { deposit: 'liquidity', withdraw: 'shares' },
  // A deposit takes exactly its amount; a redemption pays its cUSDC rounded down
  // (`Reserve::redeem_collateral` through `CollateralExchangeRate::collateral_to_liquidity`), and
  // the leg redeems the cUSDC worth at least the amount (docs/venues/solana.md, Rounding).
  withdrawRounding: 'receipt',
  receiptMint: (ids) => venueId(ids, 'reserveCollateralMint'),
  buildCall: async (input) => {
    const { action, owner, amountMicros, usdcMint, ids } = input;
    const reserve = reserveOf(ids);
    const accounts = {
      owner,
      ownerLiquidity: associatedTokenAccount(owner, usdcMint),
      ownerCollateral: associatedTokenAccount(owner, reserve.collateralMint),
    };
    const common = { adapter: reserve.reserve, venueProgram: reserve.program };
    const refresh = saveRefreshReserveInstruction(reserve);
    if (action === 'deposit') {
      const { keys } = saveDepositReserveLiquidityInstruction(reserve, accounts, amountMicros);
      return {
        ...common,
        setup: [
          createAssociatedTokenAccountIdempotentInstruction(
            owner,
            accounts.ownerCollateral,
            owner,
            reserve.collateralMint,
          ),
          refresh,
        ],
        argument: amountMicros,
        venueAccounts: keys,
      };
    }
    const collateral = await receiptsToRedeem(input, {
      receipt: 'Save cUSDC',
      receiptMint: reserve.collateralMint,
      read: (connection) => readRate(connection, reserve, usdcMint),
      size: (rate, amount, held) => cTokensForUsdc(amount, rate, held),
    });
    if (typeof collateral !== 'bigint') return collateral;
    const { keys } = saveRedeemReserveCollateralInstruction(reserve, accounts, collateral);
    return {
      ...common,
      setup: [
        createAssociatedTokenAccountIdempotentInstruction(
          owner,
          accounts.ownerLiquidity,
          owner,
          usdcMint,
        ),
        refresh,
      ],
      argument: collateral,
      venueAccounts: keys,
    };
  },
  readExchangeRate: async (connection, ids, usdcMint) => {
    const rate = await readRate(connection, reserveOf(ids), usdcMint);
    // cTokenValue(c) = floor(c × WAD / rate): liquidity WAD over supply rate.
    return { liquidity: SAVE_WAD, supply: rate };
  },
};
