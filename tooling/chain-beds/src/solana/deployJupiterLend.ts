import { createHash } from 'node:crypto';
import {
  MINT_SIZE,
  MintLayout,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import {
  VENUE_LAYOUT,
  ensureProgramsBuilt,
  loadProgram,
  registerAdapter,
} from '@yieldrouter/solana-programs';
import type { SolanaRouterDeployment } from './deployYieldRouter';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';
import { writeAccount } from './svmAccounts';

/** Jupiter Lend's mainnet program ids (as in `@jup-ag/lend`). */
export const JUPITER_LEND_PROGRAM_IDS = {
  lending: 'jup3YeL8QhtSx1e253b2FDvsMNC87fDrgQZivbrndc9',
  liquidity: 'jupeiUmn818Jg1ekPURTpr4mFo29p46vygyykFJ3wZC',
  rewardsRateModel: 'jup7TthsMgcR9Y3L277b8Eo9uboVSmu1utkuXHNUKar',
} as const;

/** One Jupiter Lend Earn market on the bed (base58): the ids its venue takes. */
export interface SolanaJupiterLend {
  readonly lendingProgram: string;
  readonly liquidityProgram: string;
  readonly mint: string;
  readonly fTokenMint: string;
  readonly lending: string;
  readonly lendingAdmin: string;
  readonly supplyTokenReservesLiquidity: string;
  readonly lendingSupplyPositionOnLiquidity: string;
  readonly rateModel: string;
  readonly vault: string;
  readonly liquidity: string;
  readonly rewardsRateModel: string;
  readonly claimAccount: string;
  /** The venue's `SVC_VENUE_IDS` entry (chain-solana's Jupiter Lend protocol's id names). */
  readonly ids: Readonly<Record<string, string>>;
  /**
   * Interest arrives on the liquidity layer: `amountMicros` USDC into the vault and its supply
   * exchange price up by the same fraction of what the vault held (the stand-in's `accrue`).
   */
  accrue(amountMicros: bigint): void;
}

const pda = (seeds: (Buffer | PublicKey)[], program: string): PublicKey =>
  PublicKey.findProgramAddressSync(
    seeds.map((seed) => (seed instanceof PublicKey ? seed.toBuffer() : seed)),
    new PublicKey(program),
  )[0];
const seed = (text: string) => Buffer.from(text, 'utf8');
const accountDiscriminator = (name: string) =>
  createHash('sha256').update(`account:${name}`).digest().subarray(0, 8);

const PRICE_ONE = 1_000_000_000_000n;
/** The stand-in's own liquidity-side `accrue` (not a Jupiter instruction): tag then amount. */
const ACCRUE_TAG = Buffer.from('YRJLACC\0', 'latin1');

function lendingData(fields: {
  mint: PublicKey;
  fTokenMint: PublicKey;
  rewardsRateModel: PublicKey;
  tokenReserve: PublicKey;
  supplyPosition: PublicKey;
  bump: number;
}): Buffer {
  const data = Buffer.alloc(196);
  accountDiscriminator('Lending').copy(data, 0);
  fields.mint.toBuffer().copy(data, 8);
  fields.fTokenMint.toBuffer().copy(data, 40);
  data.writeUInt16LE(1, 72); // lending_id
  data.writeUInt8(6, 74); // decimals
  fields.rewardsRateModel.toBuffer().copy(data, 75);
  data.writeBigUInt64LE(PRICE_ONE, 107); // liquidity_exchange_price
  data.writeBigUInt64LE(PRICE_ONE, 115); // token_exchange_price
  fields.tokenReserve.toBuffer().copy(data, 131);
  fields.supplyPosition.toBuffer().copy(data, 163);
  data.writeUInt8(fields.bump, 195);
  return data;
}

function tokenReserveData(mint: PublicKey, vault: PublicKey): Buffer {
  const data = Buffer.alloc(192);
  accountDiscriminator('TokenReserve').copy(data, 0);
  mint.toBuffer().copy(data, 8);
  vault.toBuffer().copy(data, 40);
  data.writeBigUInt64LE(PRICE_ONE, 86); // supply_exchange_price
  data.writeBigUInt64LE(PRICE_ONE, 94); // borrow_exchange_price
  data.writeUInt16LE(9500, 102); // max_utilization
  return data;
}

/**
 * The Jupiter Lend stand-in (`programs/jupiter_lend`, built first when missing or stale) at the
 * lending and liquidity programs' mainnet ids, with the bed's USDC market laid out at the
 * addresses `@jup-ag/lend` derives for mainnet USDC: the jlUSDC mint, the Lending account
 * (prices 1.0), the liquidity layer's TokenReserve and vault. `seedMicros` (default 1,000 USDC)
 * of other suppliers' USDC sits in the vault so interest has a base to grow. With `router`, the
 * market's Lending account is registered with it as an adapter (layout Jupiter Lend).
 *
 * @example
 * const jupiter = deployJupiterLend(bed);
 * // SVC_VENUE_IDS={"jupiter-lend": { lending: jupiter.lending, … }}
 */
export function deployJupiterLend(
  bed: SolanaBed,
  options: { readonly router?: SolanaRouterDeployment; readonly seedMicros?: bigint } = {},
): SolanaJupiterLend {
  const seedMicros = options.seedMicros ?? 1_000_000_000n;
  const programs = ensureProgramsBuilt();
  const { lending: lendingProgram, liquidity: liquidityProgram } = JUPITER_LEND_PROGRAM_IDS;
  for (const program of [lendingProgram, liquidityProgram]) {
    loadProgram(
      bed.svm,
      new PublicKey(program),
      programs.jupiter_lend,
      bed.mintAuthority.publicKey,
    );
  }
  const mint = new PublicKey(bed.usdcMint);
  const fTokenMint = pda([seed('f_token_mint'), mint], lendingProgram);
  const lendingAdmin = pda([seed('lending_admin')], lendingProgram);
  const [lending, lendingBump] = PublicKey.findProgramAddressSync(
    [seed('lending'), mint.toBuffer(), fTokenMint.toBuffer()],
    new PublicKey(lendingProgram),
  );
  const liquidity = pda([seed('liquidity')], liquidityProgram);
  const tokenReserve = pda([seed('reserve'), mint], liquidityProgram);
  const supplyPosition = pda([seed('user_supply_position'), mint, lending], liquidityProgram);
  const rateModel = pda([seed('rate_model'), mint], liquidityProgram);
  const claimAccount = pda([seed('user_claim'), lendingAdmin, mint], liquidityProgram);
  const rewardsRateModel = pda(
    [seed('lending_rewards_rate_model'), mint],
    JUPITER_LEND_PROGRAM_IDS.rewardsRateModel,
  );
  const vault = getAssociatedTokenAddressSync(mint, liquidity, true);

  const rent = (bytes: number) => BigInt(bed.svm.minimumBalanceForRentExemption(BigInt(bytes)));
  const mintData = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: lendingAdmin,
      supply: 0n,
      decimals: 6,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    mintData,
  );
  const write = (address: PublicKey, owner: string, data: Buffer) =>
    writeAccount(bed.svm, {
      address: address.toBase58(),
      lamports: rent(data.length),
      owner,
      data,
      executable: false,
    });
  write(fTokenMint, TOKEN_PROGRAM_ID.toBase58(), mintData);
  write(
    lending,
    lendingProgram,
    lendingData({
      mint,
      fTokenMint,
      rewardsRateModel,
      tokenReserve,
      supplyPosition,
      bump: lendingBump,
    }),
  );
  write(tokenReserve, liquidityProgram, tokenReserveData(mint, vault));
  bed.mintUsdc(liquidity, seedMicros);

  const accrue = (amountMicros: bigint): void => {
    const payer: Keypair = bed.mintAuthority;
    const payerUsdc = bed.mintUsdc(payer.publicKey, amountMicros);
    const data = Buffer.alloc(16);
    ACCRUE_TAG.copy(data, 0);
    data.writeBigUInt64LE(amountMicros, 8);
    sendAsAuthority({
      sender: bed,
      authority: payer,
      instructions: [
        new TransactionInstruction({
          programId: new PublicKey(liquidityProgram),
          keys: [
            { pubkey: payer.publicKey, isSigner: true, isWritable: true },
            { pubkey: payerUsdc, isSigner: false, isWritable: true },
            { pubkey: vault, isSigner: false, isWritable: true },
            { pubkey: tokenReserve, isSigner: false, isWritable: true },
            { pubkey: mint, isSigner: false, isWritable: false },
            { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
          ],
          data,
        }),
      ],
      what: 'jupiter-lend accrue',
    });
  };

  if (options.router) {
    registerWith(
      bed,
      options.router,
      lending,
      new PublicKey(lendingProgram),
      VENUE_LAYOUT.jupiterLend,
    );
  }
  const ids = {
    lendingProgram,
    liquidityProgram,
    fTokenMint: fTokenMint.toBase58(),
    lending: lending.toBase58(),
    lendingAdmin: lendingAdmin.toBase58(),
    supplyTokenReservesLiquidity: tokenReserve.toBase58(),
    lendingSupplyPositionOnLiquidity: supplyPosition.toBase58(),
    rateModel: rateModel.toBase58(),
    vault: vault.toBase58(),
    liquidity: liquidity.toBase58(),
    rewardsRateModel: rewardsRateModel.toBase58(),
    claimAccount: claimAccount.toBase58(),
  };
  return { ids, ...ids, mint: mint.toBase58(), accrue };
}

/** Registers `adapter` (a protocol account of `venueProgram`) with the bed's router. */
export function registerWith(
  bed: SolanaBed,
  router: SolanaRouterDeployment,
  adapter: PublicKey,
  venueProgram: PublicKey,
  layout: (typeof VENUE_LAYOUT)[keyof typeof VENUE_LAYOUT],
): void {
  sendAsAuthority({
    sender: bed,
    authority: bed.mintAuthority,
    instructions: [
      registerAdapter(
        new PublicKey(router.programId),
        bed.mintAuthority.publicKey,
        adapter,
        venueProgram,
        layout,
      ),
    ],
    what: 'register adapter',
  });
}
