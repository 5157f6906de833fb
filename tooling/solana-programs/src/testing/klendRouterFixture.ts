import { createAssociatedTokenAccountIdempotentInstruction } from '@solana/spl-token';
import type { AccountMeta, Keypair } from '@solana/web3.js';
import { deployKlendStandin } from '../deployKlendStandin';
import type { DeployKlendStandinParameters } from '../deployKlendStandin';
import { klendMoveAccounts } from '../klendStandinInstructions';
import type { KlendStandinReserve } from '../klendStandinInstructions';
import {
  VENUE_LAYOUT,
  ata,
  planMemo,
  registerAdapter,
  routerVenueCall,
} from '../programInstructions';
import type { ProgramRun } from './programHarness';
import { createProgramFixture } from './programFixture';
import type { ProgramFixture } from './programFixture';

/** The run, or a thrown error carrying the program's error and logs. */
export function expectRunOk(run: ProgramRun): ProgramRun {
  if (!run.ok) throw new Error(`${run.error}\n${run.logs.join('\n')}`);
  return run;
}

export interface KlendRouterFixture {
  readonly fixture: ProgramFixture;
  readonly reserve: KlendStandinReserve;
  /** Holds `ownerUsdc` USDC and an (empty) cToken account. */
  readonly owner: Keypair;
}

/**
 * The router program with the klend stand-in (or its skimming build) deployed and registered as a venue adapter (klend
 * layout), and an owner funded with `ownerUsdc` who holds a cToken account.
 *
 * @example
 * const { fixture, reserve, owner } = createKlendRouterFixture(50_000_000n);
 */
export function createKlendRouterFixture(
  ownerUsdc: bigint,
  options: Pick<DeployKlendStandinParameters, 'skimming'> = {},
): KlendRouterFixture {
  const fixture = createProgramFixture();
  const reserve = deployKlendStandin({
    ...options,
    svm: fixture.harness.svm,
    send: (instructions, signers) => {
      expectRunOk(fixture.harness.send(instructions, [fixture.admin, ...signers]));
    },
    admin: fixture.admin,
    usdcMint: fixture.usdcMint,
  });
  expectRunOk(
    fixture.harness.send(
      [
        registerAdapter(
          fixture.routerProgram,
          fixture.admin.publicKey,
          reserve.reserve,
          reserve.program,
          VENUE_LAYOUT.klend,
        ),
      ],
      [fixture.admin],
    ),
  );
  const owner = fixture.owner(ownerUsdc);
  expectRunOk(
    fixture.harness.send(
      [
        createAssociatedTokenAccountIdempotentInstruction(
          owner.publicKey,
          ata(owner.publicKey, reserve.collateralMint),
          owner.publicKey,
          reserve.collateralMint,
        ),
      ],
      [owner],
    ),
  );
  return { fixture, reserve, owner };
}

/**
 * The owner's leg through the router into the klend stand-in (its deposit or redeem, with the
 * plan memo), sent as is; `accounts` may alter the venue accounts the router is given.
 */
export function sendRoutedKlendLeg(
  { fixture, reserve, owner }: KlendRouterFixture,
  leg: {
    readonly name: 'deposit_to_venue' | 'withdraw_from_venue';
    readonly amount: bigint;
    readonly planId: Uint8Array;
    readonly accounts?: ((metas: AccountMeta[]) => AccountMeta[]) | undefined;
  },
): ProgramRun {
  const venueAccounts = klendMoveAccounts(
    leg.name === 'deposit_to_venue' ? 'deposit_reserve_liquidity' : 'redeem_reserve_collateral',
    reserve,
    owner.publicKey,
  );
  return fixture.harness.send(
    [
      routerVenueCall(leg.name, {
        programId: fixture.routerProgram,
        owner: owner.publicKey,
        amount: leg.amount,
        planId: leg.planId,
        adapter: reserve.reserve,
        venueProgram: reserve.program,
        treasury: fixture.treasuryUsdc,
        venueAccounts: leg.accounts ? leg.accounts(venueAccounts) : venueAccounts,
      }),
      planMemo(leg.planId),
    ],
    [owner],
  );
}
