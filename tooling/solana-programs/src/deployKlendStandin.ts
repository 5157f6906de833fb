import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
} from '@solana/spl-token';
import { Keypair, SystemProgram } from '@solana/web3.js';
import type { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { createMintInstructions } from './createMintInstructions';
import { ensureProgramsBuilt } from './ensureProgramsBuilt';
import {
  KLEND_MARKET_SIZE,
  KLEND_PROGRAM_ID,
  KLEND_RESERVE_SIZE,
  klendMarketAuthority,
  klendMove,
  standinBorrow,
  standinInitMarket,
  standinInitReserve,
} from './klendStandinInstructions';
import type { KlendStandinReserve } from './klendStandinInstructions';
import { loadProgram } from './loadProgram';
import { ata } from './programInstructions';

/** Sends instructions signed by the payer (and `signers`); throws with the logs on failure. */
export type SendInstructions = (
  instructions: TransactionInstruction[],
  signers: readonly Keypair[],
) => void;

export interface DeployKlendStandinParameters {
  readonly svm: Pick<
    LiteSVM,
    'addProgramFromFile' | 'getAccount' | 'setAccount' | 'minimumBalanceForRentExemption'
  >;
  readonly send: SendInstructions;
  /** Pays for the accounts, owns the market, holds the USDC mint's authority. */
  readonly admin: Keypair;
  readonly usdcMint: PublicKey;
  /** The reserve's flat borrow rate a year (default 10%) and protocol take rate (default 10%). */
  readonly borrowRateBps?: number;
  readonly protocolTakeRatePct?: number;
  /** Seed liquidity the admin deposits, and how much of it the admin borrows (interest accrues on it). */
  readonly seedMicros?: bigint;
  readonly borrowMicros?: bigint;
  /**
   * The skimming build (programs/klend_skimming, a cheating bed: honest until
   * `standinSetSkim`) instead of the honest one, at `program` (a fresh id: klend's stays the
   * honest stand-in's).
   */
  readonly skimming?: { readonly program: PublicKey };
}

/**
 * Loads the klend stand-in at klend's program id (or its skimming build elsewhere) and sets up one lending market with a USDC
 * reserve: cToken mint and supply vault owned by the market authority, the admin's seed deposit
 * and a borrow, so the reserve's exchange rate moves with every slot.
 *
 * @example
 * const reserve = deployKlendStandin({ svm, send, admin, usdcMint });
 */
export function deployKlendStandin(parameters: DeployKlendStandinParameters): KlendStandinReserve {
  const { svm, send, admin, usdcMint } = parameters;
  const program = parameters.skimming?.program ?? KLEND_PROGRAM_ID;
  const built = ensureProgramsBuilt();
  const so = parameters.skimming ? built.klend_skimming : built.klend_standin;
  loadProgram(svm, program, so, admin.publicKey);
  const market = Keypair.generate();
  const reserveKey = Keypair.generate();
  const collateralMint = Keypair.generate();
  const authority = klendMarketAuthority(program, market.publicKey);
  const account = (target: Keypair, space: number) =>
    SystemProgram.createAccount({
      fromPubkey: admin.publicKey,
      newAccountPubkey: target.publicKey,
      lamports: Number(svm.minimumBalanceForRentExemption(BigInt(space))),
      space,
      programId: program,
    });
  const reserve: KlendStandinReserve = {
    program,
    lendingMarket: market.publicKey,
    reserve: reserveKey.publicKey,
    liquidityMint: usdcMint,
    liquiditySupply: ata(authority, usdcMint),
    collateralMint: collateralMint.publicKey,
    feeVault: ata(authority, usdcMint),
  };
  send(
    [
      account(market, KLEND_MARKET_SIZE),
      account(reserveKey, KLEND_RESERVE_SIZE),
      ...createMintInstructions({
        svm,
        payer: admin.publicKey,
        mint: collateralMint.publicKey,
        decimals: 6,
        mintAuthority: authority,
      }),
      createAssociatedTokenAccountIdempotentInstruction(
        admin.publicKey,
        reserve.liquiditySupply,
        authority,
        usdcMint,
      ),
    ],
    [market, reserveKey, collateralMint],
  );
  send([standinInitMarket(program, admin.publicKey, market.publicKey)], []);
  send(
    [
      standinInitReserve(
        reserve,
        admin.publicKey,
        parameters.borrowRateBps ?? 1_000,
        parameters.protocolTakeRatePct ?? 10,
      ),
    ],
    [],
  );
  const seed = parameters.seedMicros ?? 100_000_000n;
  const borrow = parameters.borrowMicros ?? 50_000_000n;
  if (seed > 0n) {
    const adminUsdc = ata(admin.publicKey, usdcMint);
    send(
      [
        createAssociatedTokenAccountIdempotentInstruction(
          admin.publicKey,
          adminUsdc,
          admin.publicKey,
          usdcMint,
        ),
        createAssociatedTokenAccountIdempotentInstruction(
          admin.publicKey,
          ata(admin.publicKey, collateralMint.publicKey),
          admin.publicKey,
          collateralMint.publicKey,
        ),
        createMintToInstruction(usdcMint, adminUsdc, admin.publicKey, seed),
        klendMove('deposit_reserve_liquidity', reserve, admin.publicKey, seed),
        ...(borrow > 0n ? [standinBorrow(reserve, admin.publicKey, borrow)] : []),
      ],
      [],
    );
  }
  return reserve;
}
