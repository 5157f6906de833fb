import { MINT_SIZE, MintLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  MEMO_PROGRAM_ID,
  VENUE_LAYOUT,
  ensureProgramsBuilt,
  loadProgram,
  tokenAccountData,
} from '@yieldrouter/solana-programs';
import { registerWith } from './deployJupiterLend';
import type { SolanaRouterDeployment } from './deployYieldRouter';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';
import { fundWithUsdc, writeStandInAccount } from './standInAccounts';

/** Save (Solend)'s mainnet program id (`SOLEND_PRODUCTION_PROGRAM_ID` of the SDK). */
export const SAVE_PROGRAM_ID = 'So1endDq2YkqhipRh3WViPa8hdiSpxWy6z3Z6tMCpAo';

const WAD = 1_000_000_000_000_000_000n;
const RESERVE_LEN = 619;
const LENDING_MARKET_LEN = 290;

/** One Save USDC reserve on the bed (base58): the ids its venue takes. */
export interface SolanaSaveReserve {
  readonly program: string;
  readonly lendingMarket: string;
  readonly lendingMarketAuthority: string;
  readonly reserve: string;
  readonly liquiditySupply: string;
  readonly collateralMint: string;
  readonly pythOracle: string;
  readonly switchboardOracle: string;
  /** The venue's `SVC_VENUE_IDS` entry (chain-solana's Save protocol's id names). */
  readonly ids: Readonly<Record<string, string>>;
  /**
   * Time passes: the bed moves `slots` slots on; the next `RefreshReserve` accrues the borrowers'
   * interest for them (the stand-in's linear rate, see programs/save_lending).
   */
  advanceSlots(slots: bigint): void;
  /** `RefreshReserve` (tag 3), sent by the bed's authority: what keepers crank on mainnet. */
  refresh(): void;
}

export interface DeploySaveParameters {
  /** USDC other suppliers left in the reserve (default 700). */
  readonly availableMicros?: bigint;
  /** USDC lent out to borrowers, earning interest (default 300). */
  readonly borrowedMicros?: bigint;
  /** The borrow rate, % a year (the reserve config's optimal borrow rate; default 10). */
  readonly borrowRatePercent?: number;
  /** The protocol's share of interest, % (default 20). */
  readonly protocolTakeRatePercent?: number;
  /** When given, the reserve is registered with this router as an adapter (layout Save). */
  readonly router?: SolanaRouterDeployment;
  /**
   * Load the skimming build (programs/save_skimming, a cheating bed for issue 44's tests) in
   * the stand-in's place: honest until `deploySkimmingSave`'s `setSkimBps` turns a skim on.
   */
  readonly skimming?: boolean;
}

/** A Reserve as the SDK's `ReserveLayout` lays it out (the fields the stand-in and reader use). */
function reserveData(fields: {
  slot: bigint;
  market: PublicKey;
  usdc: PublicKey;
  supply: PublicKey;
  pyth: PublicKey;
  switchboard: PublicKey;
  available: bigint;
  borrowedWads: bigint;
  collateralMint: PublicKey;
  collateralSupply: bigint;
  collateralSupplyAccount: PublicKey;
  feeReceiver: PublicKey;
  borrowRatePercent: number;
  protocolTakeRatePercent: number;
}): Buffer {
  const data = Buffer.alloc(RESERVE_LEN);
  const u128 = (value: bigint, offset: number) => {
    data.writeBigUInt64LE(value & ((1n << 64n) - 1n), offset);
    data.writeBigUInt64LE(value >> 64n, offset + 8);
  };
  data.writeUInt8(1, 0); // version
  data.writeBigUInt64LE(fields.slot, 1); // last_update.slot; stale (9) = 0
  fields.market.toBuffer().copy(data, 10);
  fields.usdc.toBuffer().copy(data, 42);
  data.writeUInt8(6, 74);
  fields.supply.toBuffer().copy(data, 75);
  fields.pyth.toBuffer().copy(data, 107);
  fields.switchboard.toBuffer().copy(data, 139);
  data.writeBigUInt64LE(fields.available, 171);
  u128(fields.borrowedWads, 179);
  u128(WAD, 195); // cumulative borrow rate
  u128(WAD, 211); // market price: 1 USD
  fields.collateralMint.toBuffer().copy(data, 227);
  data.writeBigUInt64LE(fields.collateralSupply, 259);
  fields.collateralSupplyAccount.toBuffer().copy(data, 267);
  // config: optimal utilisation 80, LTV 75, liquidation bonus 5, threshold 85, borrow rates
  // min 0 / optimal / max 30, fees 0, host fee 20, limits, fee receiver, liquidation fee 10.
  Buffer.from([80, 75, 5, 85, 0, fields.borrowRatePercent, 30]).copy(data, 299);
  data.writeUInt8(20, 322);
  data.writeBigUInt64LE(1_000_000_000_000_000n, 323);
  data.writeBigUInt64LE(1_000_000_000_000_000n, 331);
  fields.feeReceiver.toBuffer().copy(data, 339);
  data.writeUInt8(10, 371);
  data.writeUInt8(fields.protocolTakeRatePercent, 372);
  return data;
}

/**
 * The Save stand-in (`programs/save_lending`, built first when missing or stale) at Save's
 * mainnet program id, with one lending market and its USDC reserve: `availableMicros` in the
 * liquidity supply and `borrowedMicros` lent out, backed one to one by cTokens held by an earlier
 * supplier (so the exchange rate starts at 1). The bed's accounts take fresh addresses; the
 * program id, layouts and PDA derivations are Save's.
 *
 * @example
 * const save = deploySave(bed);
 * save.advanceSlots(6_307_200n); // a tenth of a year at 10 % on 300 USDC borrowed
 */
export function deploySave(
  bed: SolanaBed,
  parameters: DeploySaveParameters = {},
): SolanaSaveReserve {
  const available = parameters.availableMicros ?? 700_000_000n;
  const borrowed = parameters.borrowedMicros ?? 300_000_000n;
  loadProgram(
    bed.svm,
    new PublicKey(SAVE_PROGRAM_ID),
    ensureProgramsBuilt()[parameters.skimming ? 'save_skimming' : 'save_lending'],
    bed.mintAuthority.publicKey,
  );
  const program = new PublicKey(SAVE_PROGRAM_ID);
  const usdc = new PublicKey(bed.usdcMint);
  const market = Keypair.generate().publicKey;
  const [authority, bump] = PublicKey.findProgramAddressSync([market.toBuffer()], program);
  const reserve = Keypair.generate().publicKey;
  const supply = Keypair.generate().publicKey;
  const collateralMint = Keypair.generate().publicKey;
  const collateralSupplyAccount = Keypair.generate().publicKey;
  const pyth = Keypair.generate().publicKey;
  const switchboard = Keypair.generate().publicKey;
  const earlierSupplier = Keypair.generate().publicKey;
  const earlierCollateral = Keypair.generate().publicKey;

  const write = (address: PublicKey, owner: PublicKey, data: Buffer) =>
    writeStandInAccount(bed, address, owner, data);
  const tokenAccount = (address: PublicKey, mint: PublicKey, owner: PublicKey, amount: bigint) => {
    write(address, TOKEN_PROGRAM_ID, tokenAccountData(mint, owner, amount));
  };

  // LendingMarket (SDK LendingMarketLayout): version 1, bump seed, owner, quote currency, the
  // token program, oracle programs; the rate limiter and the rest left at zero.
  const marketData = Buffer.alloc(LENDING_MARKET_LEN);
  marketData.writeUInt8(1, 0);
  marketData.writeUInt8(bump, 1);
  bed.mintAuthority.publicKey.toBuffer().copy(marketData, 2);
  usdc.toBuffer().copy(marketData, 34);
  TOKEN_PROGRAM_ID.toBuffer().copy(marketData, 66);
  write(market, program, marketData);

  // The cToken mint (authority: the market authority), its supply held by an earlier supplier.
  const mintData = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: authority,
      supply: available + borrowed,
      decimals: 6,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    mintData,
  );
  write(collateralMint, TOKEN_PROGRAM_ID, mintData);
  tokenAccount(earlierCollateral, collateralMint, earlierSupplier, available + borrowed);
  tokenAccount(collateralSupplyAccount, collateralMint, authority, 0n);
  tokenAccount(supply, usdc, authority, 0n);
  // The liquidity the reserve holds: real USDC, minted to the bed's authority and moved in.
  fundWithUsdc(bed, supply, available, 'save reserve funding');

  write(
    reserve,
    program,
    reserveData({
      slot: BigInt(bed.svm.getClock().slot),
      market,
      usdc,
      supply,
      pyth,
      switchboard,
      available,
      borrowedWads: borrowed * WAD,
      collateralMint,
      collateralSupply: available + borrowed,
      collateralSupplyAccount,
      feeReceiver: bed.mintAuthority.publicKey,
      borrowRatePercent: parameters.borrowRatePercent ?? 10,
      protocolTakeRatePercent: parameters.protocolTakeRatePercent ?? 20,
    }),
  );

  if (parameters.router) {
    registerWith(bed, parameters.router, reserve, program, VENUE_LAYOUT.save);
  }
  return {
    ids: {
      saveProgram: SAVE_PROGRAM_ID,
      lendingMarket: market.toBase58(),
      reserve: reserve.toBase58(),
      reserveLiquiditySupply: supply.toBase58(),
      reserveCollateralMint: collateralMint.toBase58(),
      pythOracle: pyth.toBase58(),
      switchboardOracle: switchboard.toBase58(),
    },
    program: SAVE_PROGRAM_ID,
    lendingMarket: market.toBase58(),
    lendingMarketAuthority: authority.toBase58(),
    reserve: reserve.toBase58(),
    liquiditySupply: supply.toBase58(),
    collateralMint: collateralMint.toBase58(),
    pythOracle: pyth.toBase58(),
    switchboardOracle: switchboard.toBase58(),
    refresh: () =>
      sendAsAuthority({
        sender: bed,
        authority: bed.mintAuthority,
        instructions: [
          new TransactionInstruction({
            programId: program,
            keys: [
              { pubkey: reserve, isSigner: false, isWritable: true },
              { pubkey: pyth, isSigner: false, isWritable: false },
              { pubkey: switchboard, isSigner: false, isWritable: false },
            ],
            data: Buffer.from([3]),
          }),
        ],
        what: 'save refresh_reserve',
      }),
    advanceSlots: (slots) => {
      const clock = bed.svm.getClock();
      bed.svm.warpToSlot(clock.slot + slots);
      bed.svm.expireBlockhash(); // a new slot, a new blockhash
    },
  };
}

/** Save's tag-less custom instruction the skimming build adds (not one of Save's tags). */
const STANDIN_SET_SKIM = 250;

/** The skimming Save (`programs/save_skimming`) and its operator's switch. */
export interface SolanaSkimmingSave extends SolanaSaveReserve {
  /**
   * From now on (the market owner turns a skim on): each deposit takes `bps` of the liquidity on
   * top of what it books, each redemption pays `bps` less; the skim stays in the reserve's
   * liquidity supply, and the venue's log, its cTokens and the router's event claim the plan's
   * amount.
   */
  setSkimBps(bps: bigint): void;
}

/**
 * A venue that cheats (issue 44), for the tests that prove simulation and settlement catch it on
 * Solana: `deploySave` with the skimming build at Save's program id (its own bed: the product's
 * Save adapter builds the same bytes for it as for the honest stand-in).
 *
 * @example
 * const cheat = deploySkimmingSave(bed, { router });
 * cheat.setSkimBps(500n);
 */
export function deploySkimmingSave(
  bed: SolanaBed,
  parameters: Omit<DeploySaveParameters, 'skimming'> = {},
): SolanaSkimmingSave {
  const save = deploySave(bed, { ...parameters, skimming: true });
  let settings = 0;
  return {
    ...save,
    setSkimBps: (bps) => {
      // A numbered memo: the same setting again is another transaction (litesvm refuses a
      // repeat), and the blockhash stays the one prepared plans were built with.
      settings += 1;
      const data = Buffer.alloc(9);
      data.writeUInt8(STANDIN_SET_SKIM, 0);
      data.writeBigUInt64LE(bps, 1);
      sendAsAuthority({
        sender: bed,
        authority: bed.mintAuthority,
        instructions: [
          new TransactionInstruction({
            programId: new PublicKey(save.program),
            keys: [
              { pubkey: bed.mintAuthority.publicKey, isSigner: true, isWritable: false },
              { pubkey: new PublicKey(save.lendingMarket), isSigner: false, isWritable: true },
            ],
            data,
          }),
          new TransactionInstruction({
            programId: MEMO_PROGRAM_ID,
            keys: [],
            data: Buffer.from(`bed: save skim ${bps} bps (setting ${settings})`, 'utf8'),
          }),
        ],
        what: 'save set skim',
      });
    },
  };
}
