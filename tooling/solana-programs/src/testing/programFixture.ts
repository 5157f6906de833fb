import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
} from '@solana/spl-token';
import { Keypair } from '@solana/web3.js';
import type { PublicKey } from '@solana/web3.js';
import { createMintInstructions } from '../createMintInstructions';
import { ensureProgramsBuilt } from '../ensureProgramsBuilt';
import { loadProgram } from '../loadProgram';
import { ProgramHarness } from './programHarness';
import {
  ata,
  initializeRouter,
  initializeVenue,
  registerAdapter,
  routerPda,
  setFeeConfig,
  VENUE_LAYOUT,
  venuePda,
} from '../programInstructions';
import type { VenueAccounts } from '../programInstructions';

/** litesvm with both programs loaded, a USDC mint, an initialised router and a registered venue. */
export interface ProgramFixture {
  readonly harness: ProgramHarness;
  readonly routerProgram: PublicKey;
  readonly usdcMint: PublicKey;
  /** Admin of the router and of the venue; holds every mint's authority. */
  readonly admin: Keypair;
  readonly venue: VenueAccounts;
  /** The treasury wallet in the registry's fee configuration (500 bps), and its USDC account. */
  readonly treasury: Keypair;
  readonly treasuryUsdc: PublicKey;
  /** A funded owner with `usdc` micros of USDC and an (empty) receipt-token account. */
  owner(usdc: bigint): Keypair;
  /** Mints USDC (creates the ATA). */
  mintUsdc(owner: PublicKey, amount: bigint): PublicKey;
  tokenBalance(account: PublicKey): bigint;
}

function ok(run: { ok: boolean; error: string | undefined; logs: readonly string[] }): void {
  if (!run.ok) throw new Error(`fixture transaction failed: ${run.error}\n${run.logs.join('\n')}`);
}

function createMint(harness: ProgramHarness, payer: Keypair, authority: PublicKey): PublicKey {
  const mint = Keypair.generate();
  ok(
    harness.send(
      [
        ...createMintInstructions({
          svm: harness.svm,
          payer: payer.publicKey,
          mint: mint.publicKey,
          decimals: 6,
          mintAuthority: authority,
        }),
      ],
      [payer, mint],
    ),
  );
  return mint.publicKey;
}

/** Builds the fixture; `register: false` leaves the venue out of the registry. */
export function createProgramFixture(
  options: { register?: boolean; skimBps?: number } = {},
): ProgramFixture {
  const harness = new ProgramHarness();
  const admin = harness.keypair();
  const routerProgram = Keypair.generate().publicKey;
  const venueProgram = Keypair.generate().publicKey;
  const programs = ensureProgramsBuilt();
  loadProgram(harness.svm, routerProgram, programs.yield_router, admin.publicKey);
  loadProgram(harness.svm, venueProgram, programs.test_venue, admin.publicKey);

  const usdcMint = createMint(harness, admin, admin.publicKey);
  const mintUsdc = (owner: PublicKey, amount: bigint): PublicKey => {
    const account = ata(owner, usdcMint);
    ok(
      harness.send(
        [
          createAssociatedTokenAccountIdempotentInstruction(
            admin.publicKey,
            account,
            owner,
            usdcMint,
          ),
          createMintToInstruction(usdcMint, account, admin.publicKey, amount),
        ],
        [admin],
      ),
    );
    return account;
  };

  // The venue: its PDA is the receipt mint's authority and the reserve's owner.
  const receiptMintKeypair = Keypair.generate();
  const venueKey = venuePda(venueProgram, receiptMintKeypair.publicKey);
  ok(
    harness.send(
      [
        ...createMintInstructions({
          svm: harness.svm,
          payer: admin.publicKey,
          mint: receiptMintKeypair.publicKey,
          decimals: 6,
          mintAuthority: venueKey,
        }),
        createAssociatedTokenAccountIdempotentInstruction(
          admin.publicKey,
          ata(venueKey, usdcMint),
          venueKey,
          usdcMint,
        ),
      ],
      [admin, receiptMintKeypair],
    ),
  );
  const venue: VenueAccounts = {
    program: venueProgram,
    venue: venueKey,
    receiptMint: receiptMintKeypair.publicKey,
    reserve: ata(venueKey, usdcMint),
  };
  ok(harness.send([initializeVenue(venue, admin.publicKey, usdcMint)], [admin]));

  // The router, its USDC vault (the router PDA's ATA), and the venue in its registry.
  const router = routerPda(routerProgram);
  ok(
    harness.send(
      [
        initializeRouter(routerProgram, admin.publicKey),
        createAssociatedTokenAccountIdempotentInstruction(
          admin.publicKey,
          ata(router, usdcMint),
          router,
          usdcMint,
        ),
      ],
      [admin],
    ),
  );
  // The fee configuration: the published skim, paid to the treasury's USDC account.
  const treasury = harness.keypair();
  const treasuryUsdc = mintUsdc(treasury.publicKey, 0n);
  ok(
    harness.send(
      [setFeeConfig(routerProgram, admin.publicKey, options.skimBps ?? 500, treasury.publicKey)],
      [admin],
    ),
  );
  if (options.register !== false) {
    ok(
      harness.send(
        [
          registerAdapter(
            routerProgram,
            admin.publicKey,
            venue.venue,
            venueProgram,
            VENUE_LAYOUT.testVenue,
          ),
        ],
        [admin],
      ),
    );
  }

  const tokenBalance = (account: PublicKey): bigint => {
    const data = harness.data(account);
    return data ? Buffer.from(data).readBigUInt64LE(64) : 0n;
  };
  return {
    harness,
    routerProgram,
    usdcMint,
    admin,
    venue,
    treasury,
    treasuryUsdc,
    owner: (usdc) => {
      const owner = harness.keypair();
      if (usdc > 0n) mintUsdc(owner.publicKey, usdc);
      const receipts = ata(owner.publicKey, venue.receiptMint);
      ok(
        harness.send(
          [
            createAssociatedTokenAccountIdempotentInstruction(
              admin.publicKey,
              receipts,
              owner.publicKey,
              venue.receiptMint,
            ),
          ],
          [admin],
        ),
      );
      return owner;
    },
    mintUsdc,
    tokenBalance,
  };
}
