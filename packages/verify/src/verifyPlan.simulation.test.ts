import { createHash } from 'node:crypto';
import { Transaction } from '@mysten/sui/transactions';
import { createSuiAdapter } from '@yieldrouter/chain-sui';
import {
  PACKAGE_ID,
  ROUTER_ID,
  SUILEND,
  USDC,
  suiConfig,
} from '@yieldrouter/chain-sui/src/testFixtures';
import { newPlanId } from '@yieldrouter/schemas';
import type { UnsignedLeg } from '@yieldrouter/schemas';
import { planOf } from './testing/planOf';
import type { VerifiableLeg, VerifiablePlan } from './verdict';
import { verifyPlan } from './verifyPlan';

// Issue 44: a plan's simulation is bound to its legs' bytes by digest; the verifier recomputes
// it offline for legs served as strings (Solana, Sui), so a leg swapped after the simulation
// ran (a PTB that also sends a coin elsewhere) is not covered by the honest leg's outcome.

const OWNER = `0x${'2b'.repeat(32)}`;
const THIEF = `0x${'99'.repeat(32)}`;
const venues = [
  PACKAGE_ID,
  ROUTER_ID,
  USDC,
  ...Object.values(SUILEND.ids).filter((id): id is string => /^0x[0-9a-f]{64}$/.test(id ?? '')),
];

/** The engine's `legBytesDigest` (docs/simulation.md): sha256 of `<encoding>\n<transaction>`. */
const digestOf = (leg: VerifiableLeg) =>
  `sha256:${createHash('sha256')
    .update(`${leg.encoding}\n${String(leg.transaction)}`)
    .digest('hex')}`;

async function simulatedPlan() {
  const planId = newPlanId();
  const built = await createSuiAdapter(suiConfig()).buildDeposit({
    planId,
    owner: OWNER,
    amountMicros: 7_000_000n,
    target: { kind: 'venue', venue: SUILEND },
  });
  if (built.status !== 'prepared') throw new Error(JSON.stringify(built));
  const plan = planOf(planId, OWNER, built.legs as readonly UnsignedLeg[]);
  const simulation = {
    status: 'simulated',
    legs: plan.legs.map((leg) => ({ index: leg.index, bytesDigest: digestOf(leg) })),
    findings: [],
  };
  return { ...plan, simulation } satisfies VerifiablePlan;
}

describe('verifyPlan and the simulation bound to the bytes', () => {
  it('verifies a Sui leg whose bytes are the ones simulated', async () => {
    const plan = await simulatedPlan();
    expect(verifyPlan(plan, { owner: OWNER, venues })).toMatchObject({ status: 'verified' });
  });

  it('rejects a leg swapped after the simulation: a PTB that also sends a coin elsewhere', async () => {
    const plan = await simulatedPlan();
    const [leg] = plan.legs;
    if (!leg) throw new Error('no leg');
    const tx = Transaction.from(String(leg.transaction));
    const [coin] = tx.splitCoins(tx.gas, [1_000_000n]);
    tx.transferObjects([coin!], THIEF);
    const swapped = {
      ...leg,
      transaction: await tx.toJSON({ supportedIntents: ['CoinWithBalance'] }),
    };
    const verdict = verifyPlan({ ...plan, legs: [swapped] }, { owner: OWNER, venues });
    expect(verdict.status).toBe('rejected');
    expect(verdict.reasons.map((reason) => reason.code).sort()).toEqual([
      'simulation_mismatch',
      'unknown_destination',
    ]);
    expect(
      verdict.reasons.find((reason) => reason.code === 'simulation_mismatch')?.message,
    ).toContain(plan.simulation.legs[0]?.bytesDigest);
  });

  it('says nothing of a plan not simulated (unavailable)', async () => {
    const plan = await simulatedPlan();
    const unavailable = { ...plan, simulation: { status: 'unavailable', findings: [] } };
    expect(verifyPlan(unavailable, { owner: OWNER, venues }).status).toBe('verified');
  });
});
