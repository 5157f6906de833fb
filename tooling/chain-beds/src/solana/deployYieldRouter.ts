import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import type { TransactionInstruction } from '@solana/web3.js';
import {
  ata,
  createMintInstructions,
  deployKlendStandin,
  ensureProgramsBuilt,
  initializeRouter,
  initializeVenue,
  klendRefreshReserve,
  loadProgram,
  registerAdapter,
  registryPda,
  routerPda,
  setFeeConfig,
  standinBorrow,
  VENUE_LAYOUT,
  venueAccrue,
  venuePda,
} from '@yieldrouter/solana-programs';
import type { KlendStandinReserve } from '@yieldrouter/solana-programs';
import { sendAsAuthority } from './sendAsAuthority';
import type { SolanaBed } from './startSolanaBed';

/** Our router program and one test venue, deployed and wired in a Solana bed (base58 ids). */
export interface SolanaRouterDeployment {
  /** The yield_router program id (`SVC_SOLANA_PROGRAM_ID`). */
  readonly programId: string;
  /** The router PDA (`SVC_SOLANA_YIELD_ROUTER`); its USDC ATA is the router vault. */
  readonly yieldRouter: string;
  /** The adapter registry PDA (`SVC_SOLANA_ADAPTER_REGISTRY`). */
  readonly adapterRegistry: string;
  /**
   * The programs' upgrade authority and the router's admin (initialised it, registers adapters):
   * the bed's authority (`SVC_SOLANA_UPGRADE_AUTHORITY`).
   */
  readonly admin: string;
  /**
   * The treasury wallet of the registry's fee configuration and its USDC account: every venue
   * withdrawal through the router pays the yield skim there (`SVC_TREASURY_ADDRESSES.solana`).
   */
  readonly treasury: string;
  readonly treasuryUsdc: string;
  /** The yield skim the registry was given (bps). */
  readonly skimBps: number;
  /** The test venue, registered as an adapter: the ids a Solana venue takes in `SVC_VENUE_IDS`. */
  readonly venue: {
    readonly adapter: string;
    readonly receiptMint: string;
    readonly venueProgram: string;
    readonly reserve: string;
  };
  /** Yield arrives at the test venue: `amountMicros` USDC into its reserve, no shares minted. */
  accrue(amountMicros: bigint): void;
  /**
   * Kamino: our klend stand-in at klend's program id with one USDC reserve (seeded with 100 USDC
   * at 10% a year, 10% of interest to protocol fees; nothing borrowed until the first `accrue`, so
   * the rate is exactly one until then), registered with the router under the klend layout.
   * `ids` are what `SVC_VENUE_IDS.kamino` takes.
   */
  readonly kamino: {
    readonly ids: {
      readonly klendProgram: string;
      readonly lendingMarket: string;
      readonly reserve: string;
      readonly reserveLiquiditySupply: string;
      readonly reserveCollateralMint: string;
    };
    /**
     * Time passes on the reserve: the admin borrows 50 USDC the first time, then `slots` slots of
     * interest accrue on what is borrowed, and the reserve is refreshed.
     */
    accrue(slots: bigint): void;
    /**
     * The reserve's exchange rate as its account holds it (klend layout): total liquidity
     * (available + borrowed − fees, scaled by 2^60) and the cToken supply.
     */
    rate(): { readonly totalLiquiditySf: bigint; readonly collateralSupply: bigint };
  };
}

/** `defaultFeeSchedule.yieldSkimBps` of packages/fees (the beds do not depend on the service). */
const PUBLISHED_SKIM_BPS = 500;

function send(bed: SolanaBed, instructions: TransactionInstruction[], signers: Keypair[]): void {
  sendAsAuthority({
    sender: bed,
    authority: bed.mintAuthority,
    instructions,
    signers,
    what: 'deploy',
  });
}

/**
 * Loads our C programs (built first when missing or stale: needs clang) into the bed, initialises
 * the router as the bed's authority, creates the router vault, and sets up one test venue and
 * the klend stand-in's USDC reserve, both registered as adapters. What `pnpm localnet` runs and the API's Solana flow tests use.
 *
 * @example
 * const bed = await startSolanaBed();
 * const router = deployYieldRouter(bed);
 * // SVC_SOLANA_PROGRAM_ID=router.programId, SVC_VENUE_IDS={"kamino": router.kamino.ids}
 */
export function deployYieldRouter(
  bed: SolanaBed,
  options: {
    /** The registry's yield skim; the published one (packages/fees) by default. */
    readonly skimBps?: number;
  } = {},
): SolanaRouterDeployment {
  const skimBps = options.skimBps ?? PUBLISHED_SKIM_BPS;
  const programs = ensureProgramsBuilt();
  const programId = Keypair.generate().publicKey;
  const venueProgram = Keypair.generate().publicKey;
  const admin = bed.mintAuthority;
  // The bed's authority is the upgrade authority, as the operator's key is on a cluster.
  loadProgram(bed.svm, programId, programs.yield_router, admin.publicKey);
  loadProgram(bed.svm, venueProgram, programs.test_venue, admin.publicKey);

  const usdcKey = new PublicKey(bed.usdcMint);

  const { venueAccounts, ids } = deployTestVenue(bed, venueProgram);

  const router = routerPda(programId);
  const treasury = Keypair.generate().publicKey;
  const treasuryUsdc = ata(treasury, usdcKey);
  send(
    bed,
    [
      initializeRouter(programId, admin.publicKey),
      createAssociatedTokenAccountIdempotentInstruction(
        admin.publicKey,
        treasuryUsdc,
        treasury,
        usdcKey,
      ),
      setFeeConfig(programId, admin.publicKey, skimBps, treasury),
      createAssociatedTokenAccountIdempotentInstruction(
        admin.publicKey,
        ata(router, usdcKey),
        router,
        usdcKey,
      ),
      registerAdapter(
        programId,
        admin.publicKey,
        venueAccounts.venue,
        venueProgram,
        VENUE_LAYOUT.testVenue,
      ),
    ],
    [],
  );

  return {
    programId: programId.toBase58(),
    yieldRouter: router.toBase58(),
    adapterRegistry: registryPda(programId).toBase58(),
    admin: admin.publicKey.toBase58(),
    treasury: treasury.toBase58(),
    treasuryUsdc: treasuryUsdc.toBase58(),
    skimBps,
    venue: ids,
    accrue: accrueTo(bed, venueAccounts),
    kamino: deployKamino(bed, programId),
  };
}

/** A klend reserve's ids as `SVC_VENUE_IDS.kamino` takes them (base58). */
export function klendVenueIds(
  reserve: KlendStandinReserve,
): SolanaRouterDeployment['kamino']['ids'] {
  return {
    klendProgram: reserve.program.toBase58(),
    lendingMarket: reserve.lendingMarket.toBase58(),
    reserve: reserve.reserve.toBase58(),
    reserveLiquiditySupply: reserve.liquiditySupply.toBase58(),
    reserveCollateralMint: reserve.collateralMint.toBase58(),
  };
}

/** The klend stand-in and its USDC reserve, registered with the router (klend layout). */
function deployKamino(bed: SolanaBed, programId: PublicKey): SolanaRouterDeployment['kamino'] {
  const admin = bed.mintAuthority;
  const reserve = deployKlendStandin({
    svm: bed.svm,
    send: (instructions, signers) => send(bed, instructions, [...signers]),
    admin,
    usdcMint: new PublicKey(bed.usdcMint),
    borrowMicros: 0n,
  });
  let borrowed = false;
  send(
    bed,
    [
      registerAdapter(
        programId,
        admin.publicKey,
        reserve.reserve,
        reserve.program,
        VENUE_LAYOUT.klend,
      ),
    ],
    [],
  );
  return {
    ids: klendVenueIds(reserve),
    accrue: (slots) => {
      if (!borrowed) {
        send(bed, [standinBorrow(reserve, admin.publicKey, 50_000_000n)], []);
        borrowed = true;
      }
      bed.svm.warpToSlot(bed.svm.getClock().slot + slots);
      // A fresh blockhash: a second refresh is otherwise the same transaction (AlreadyProcessed).
      bed.svm.expireBlockhash();
      send(bed, [klendRefreshReserve(reserve)], []);
    },
    rate: () => {
      const account = bed.svm.getAccount(reserve.reserve.toBase58() as never);
      if (!account.exists) throw new Error('no klend reserve');
      const data = Buffer.from(account.data);
      const u128 = (at: number) => data.readBigUInt64LE(at) + (data.readBigUInt64LE(at + 8) << 64n);
      return {
        totalLiquiditySf:
          (data.readBigUInt64LE(224) << 60n) + u128(232) - u128(344) - u128(360) - u128(376),
        collateralSupply: data.readBigUInt64LE(2592),
      };
    },
  };
}

/** Accounts of one test venue (the venue program's state for one receipt mint). */
interface VenueAccounts {
  readonly program: PublicKey;
  readonly venue: PublicKey;
  readonly receiptMint: PublicKey;
  readonly reserve: PublicKey;
}

/** A test venue on the venue program: a receipt mint its PDA mints, a USDC reserve it owns. */
function deployTestVenue(
  bed: SolanaBed,
  venueProgram: PublicKey,
): { venueAccounts: VenueAccounts; ids: SolanaRouterDeployment['venue'] } {
  const admin = bed.mintAuthority;
  const usdcKey = new PublicKey(bed.usdcMint);
  // The venue: its PDA is the receipt mint's authority and the owner of its USDC reserve.
  const receiptMint = Keypair.generate();
  const venue = venuePda(venueProgram, receiptMint.publicKey);
  const reserve = ata(venue, usdcKey);
  send(
    bed,
    [
      ...createMintInstructions({
        svm: bed.svm,
        payer: admin.publicKey,
        mint: receiptMint.publicKey,
        decimals: 6,
        mintAuthority: venue,
      }),
      createAssociatedTokenAccountIdempotentInstruction(admin.publicKey, reserve, venue, usdcKey),
    ],
    [receiptMint],
  );
  const venueAccounts = {
    program: venueProgram,
    venue,
    receiptMint: receiptMint.publicKey,
    reserve,
  };
  send(bed, [initializeVenue(venueAccounts, admin.publicKey, usdcKey)], []);
  return {
    venueAccounts,
    ids: {
      adapter: venue.toBase58(),
      receiptMint: receiptMint.publicKey.toBase58(),
      venueProgram: venueProgram.toBase58(),
      reserve: reserve.toBase58(),
    },
  };
}

const accrueTo = (bed: SolanaBed, venueAccounts: VenueAccounts) => (amountMicros: bigint) => {
  const admin = bed.mintAuthority;
  bed.mintUsdc(admin.publicKey, amountMicros);
  send(
    bed,
    [venueAccrue(venueAccounts, admin.publicKey, new PublicKey(bed.usdcMint), amountMicros)],
    [],
  );
};

/** Another test venue (a second adapter of the router) on a deployment: two venues, one chain. */
export interface SolanaTestVenue {
  readonly venue: SolanaRouterDeployment['venue'];
  accrue(amountMicros: bigint): void;
}

/**
 * Sets up one more test venue on the deployment's venue program and registers it with the
 * router, as `deployYieldRouter` does its first: a second adapter for router program tests. A
 * test fixture: no catalog venue speaks the test venue's layout (two real venues on one chain:
 * `deployJupiterLend` / `deploySave` beside kamino).
 *
 * @example
 * const second = addTestVenue(bed, router); // second.venue: adapter, receiptMint, venueProgram, reserve
 */
export function addTestVenue(bed: SolanaBed, deployment: SolanaRouterDeployment): SolanaTestVenue {
  const venueProgram = new PublicKey(deployment.venue.venueProgram);
  const { venueAccounts, ids } = deployTestVenue(bed, venueProgram);
  send(
    bed,
    [
      registerAdapter(
        new PublicKey(deployment.programId),
        bed.mintAuthority.publicKey,
        venueAccounts.venue,
        venueProgram,
        VENUE_LAYOUT.testVenue,
      ),
    ],
    [],
  );
  return { venue: ids, accrue: accrueTo(bed, venueAccounts) };
}
