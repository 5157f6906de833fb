import { PublicKey } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { deploySkimmingSave } from '@yieldrouter/chain-beds/solana';
import type {
  SolanaBed,
  SolanaRouterDeployment,
  SolanaSkimmingSave,
} from '@yieldrouter/chain-beds/solana';
import type { Books } from '@yieldrouter/ledger';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { prepareVenuePlan } from './testing/prepareVenuePlan';
import { settleOnSolanaBed } from './testing/settleOnSolanaBed';
import { startSolanaEngineBed } from './testing/solanaEngineBed';

// Issue 44 on Save with its rate moving: the skimming build of the Save stand-in
// (programs/save_skimming) at Save's program id, honest until its market owner turns a skim on.
// A withdrawal simulated honest lands after interest accrued (the leg's RefreshReserve moves the
// rate) and, in the cheating case, after the skim was turned on: the honest one is within Save's
// rounding (no divergence), the skimmed one is not (plan.divergence), whatever the rate did.

let solana: SolanaBed;
let router: SolanaRouterDeployment;
let save: SolanaSkimmingSave;
let context: () => { db: Books; adapters: ChainAdapters; venues: VenueConfig; solana: SolanaBed };
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const bed = await startSolanaEngineBed((started, deployed) => {
    const skimming = deploySkimmingSave(started, { router: deployed });
    return { ids: { save: skimming.ids }, skimming };
  });
  ({ solana, router, stop } = bed);
  save = bed.deployed.skimming;
  context = () => ({ db: bed.test.db, adapters: bed.adapters, venues: bed.venues, solana });
}, 180_000);
afterAll(() => stop?.());
afterEach(() => save.setSkimBps(0n));

/** An owner with `micros` deposited at Save (settled), then a year of interest. */
async function depositor(micros: bigint): Promise<Keypair> {
  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, micros);
  const deposit = await settleOnSolanaBed(context(), {
    kind: 'deposit',
    id: 'save',
    owner,
    amountMicros: micros,
  });
  expect(deposit.divergences).toEqual([]);
  save.advanceSlots(63_072_000n);
  save.refresh();
  return owner;
}

/**
 * A withdrawal of 2 USDC by `owner`, prepared, then landing after a minute of interest and, with
 * `skimBps`, the skim turned on; settled.
 */
const withdrawLate = (owner: Keypair, skimBps: bigint) =>
  settleOnSolanaBed(
    context(),
    { kind: 'withdraw', id: 'save', owner, amountMicros: 2_000_000n },
    () => {
      save.advanceSlots(150n);
      if (skimBps > 0n) save.setSkimBps(skimBps);
      return true;
    },
  );

describe('Save, its rate moving between prepare and landing', () => {
  it('an honest withdrawal carrying the router skim lands within the rounding: no divergence', async () => {
    const owner = await depositor(6_000_000n);
    const treasuryBefore = solana.usdcBalance(router.treasury);
    const { simulation, settled, divergences } = await withdrawLate(owner, 0n);
    expect(simulation).toMatchObject({ status: 'simulated', findings: [] });
    // A year of interest while held: the router's skim reached its treasury inside the leg.
    expect(solana.usdcBalance(router.treasury)).toBeGreaterThan(treasuryBefore);
    expect(settled).toMatchObject({ status: 'confirmed', reviewReason: null });
    expect(divergences).toEqual([]);
  });

  it('a skim turned on after the simulation: settlement reads it from the chain, plan.divergence says so', async () => {
    const owner = await depositor(6_000_000n);
    const ownerUsdc = getAssociatedTokenAddressSync(
      new PublicKey(solana.usdcMint),
      owner.publicKey,
    ).toBase58();
    const before = solana.usdcBalance(owner.publicKey);
    const { simulation, settled, divergences } = await withdrawLate(owner, 500n);
    expect(simulation).toMatchObject({ status: 'simulated', findings: [] });
    const received = solana.usdcBalance(owner.publicKey) - before;
    // 5 % of what the venue paid stayed in its supply; the owner got about 1.9 USDC of 2.
    expect(received).toBeLessThan(1_910_000n);
    // The books follow the receipt, flagged for review.
    expect(settled).toMatchObject({
      status: 'confirmed',
      settledAmountMicros: String(received),
      reviewReason: expect.stringMatching(/diverged from its simulation/),
    });
    const [divergence] = divergences ?? [];
    expect(divergences).toHaveLength(1);
    const ownerRow = divergence?.changes.find((change) => change.account === ownerUsdc);
    expect(ownerRow).toMatchObject({ role: 'owner', actual: String(received) });
    // Beyond the venue's rounding, far: what a moving rate cannot explain.
    expect(BigInt(ownerRow?.simulated ?? '0') - received).toBeGreaterThan(90_000n);
    const events = await context().db.$queryRaw<{ payload: { planId: string } }[]>`
      SELECT payload FROM outbox_events WHERE type = 'plan.divergence'`;
    expect(events).toHaveLength(1);
  });

  it('a venue that already skims when the deposit is prepared: caught by the simulation', async () => {
    const owner = solana.createFundedKeypair();
    solana.mintUsdc(owner.publicKey, 10_000_000n);
    save.setSkimBps(500n);
    const plan = await prepareVenuePlan(context(), {
      kind: 'deposit',
      id: 'save',
      owner: owner.publicKey.toBase58(),
      amountMicros: 3_000_000n,
    });
    const findings = plan.simulation?.status === 'simulated' ? plan.simulation.findings : [];
    expect(findings.map((finding) => [finding.legIndex, finding.code]).sort()).toEqual([
      [0, 'owner_amount_mismatch'],
      [0, 'venue_amount_mismatch'],
    ]);
  });
});
