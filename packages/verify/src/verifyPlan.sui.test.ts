import { createHash } from 'node:crypto';
import { Transaction } from '@mysten/sui/transactions';
import { createSuiAdapter } from '@yieldrouter/chain-sui';
import {
  NAVI,
  PACKAGE_ID,
  ROUTER_ID,
  SCALLOP,
  SUILEND,
  USDC,
  suiConfig,
} from '@yieldrouter/chain-sui/src/testFixtures';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { planOf, withLeg } from './testing/planOf';
import type { VerifiableLeg } from './verdict';
import { verifyPlan } from './verifyPlan';

// Sui legs as chain-sui builds them (offline, `sui-transaction-json`), then tampered the way a
// compromised server could, after prepare.
const OWNER = `0x${'2b'.repeat(32)}`;
const THIEF = `0x${'99'.repeat(32)}`;
const adapter = createSuiAdapter(suiConfig());
const idsOf = (venue: VenueOnChain) =>
  Object.values(venue.ids).filter((id): id is string => /^0x[0-9a-f]{64}$/.test(id ?? ''));
const venues = [PACKAGE_ID, ROUTER_ID, USDC, ...[SUILEND, NAVI, SCALLOP].flatMap(idsOf)];
const options = { owner: OWNER, venues };

function request(planId: string, target: LegRequest['target']): LegRequest {
  return { planId, owner: OWNER, amountMicros: 7_000_000n, target };
}

async function depositPlan(target: LegRequest['target']) {
  const planId = newPlanId();
  const built = await adapter.buildDeposit(request(planId, target));
  if (built.status !== 'prepared') throw new Error(JSON.stringify(built));
  return planOf(planId, OWNER, built.legs as readonly UnsignedLeg[]);
}

async function tamper(
  leg: VerifiableLeg,
  change: (tx: Transaction) => void,
): Promise<VerifiableLeg> {
  const tx = Transaction.from(String(leg.transaction));
  change(tx);
  return { ...leg, transaction: await tx.toJSON({ supportedIntents: ['CoinWithBalance'] }) };
}

describe('verifyPlan on Sui legs', () => {
  it.each([
    ['the router', { kind: 'router' }],
    ['suilend', { kind: 'venue', venue: SUILEND }],
    ['navi', { kind: 'venue', venue: NAVI }],
    ['scallop', { kind: 'venue', venue: SCALLOP }],
  ] as const)('verifies an honest deposit into %s', async (_, target) => {
    const verdict = verifyPlan(await depositPlan(target), options);
    expect(verdict).toMatchObject({ status: 'verified', reasons: [] });
  });

  it('verifies an honest payee transfer; one to a party the owner did not list is rejected', async () => {
    const PAYEE = `0x${'5e'.repeat(32)}`;
    const planId = newPlanId();
    const built = await adapter.buildTransfer({
      planId,
      owner: OWNER,
      recipient: PAYEE,
      amountMicros: 7_000_000n,
    });
    if (built.status !== 'prepared') throw new Error(JSON.stringify(built));
    const plan = planOf(planId, OWNER, built.legs as readonly UnsignedLeg[]);
    expect(verifyPlan(plan, { ...options, payees: [PAYEE] }).status).toBe('verified');
    const unlisted = verifyPlan(plan, options).reasons;
    expect(unlisted.map((reason) => [reason.code, reason.message.includes(PAYEE)])).toEqual([
      ['unknown_destination', true],
    ]);
  });

  it('catches a PTB that sends a coin elsewhere', async () => {
    const plan = await depositPlan({ kind: 'venue', venue: SUILEND });
    const leg = plan.legs[0];
    if (!leg) throw new Error('no leg');
    const skimmed = await tamper(leg, (tx) => {
      const [coin] = tx.splitCoins(tx.gas, [1_000_000n]);
      tx.transferObjects([coin!], THIEF);
    });
    const verdict = verifyPlan(
      withLeg(plan, 0, () => skimmed),
      options,
    );
    expect(verdict.status).toBe('rejected');
    expect(verdict.reasons).toEqual([
      expect.objectContaining({
        code: 'unknown_destination',
        message: expect.stringContaining(THIEF),
      }),
    ]);
  });

  it('catches the receipt redirected, a call into an unlisted package and a drawn amount above the leg', async () => {
    const plan = await depositPlan({ kind: 'venue', venue: SUILEND });
    const leg = plan.legs[0];
    if (!leg) throw new Error('no leg');
    expect(verifyPlan(plan, options).status).toBe('verified');
    const codes = async (change: (tx: Transaction) => void) =>
      verifyPlan({ ...plan, legs: [await tamper(leg, change)] }, options).reasons.map(
        (r) => r.code,
      );
    // The receipt's TransferObjects now names the thief (the JSON edited, as a server could).
    const json = JSON.parse(String(leg.transaction)) as {
      inputs: Record<string, unknown>[];
      commands: { TransferObjects?: { address: { Input: number } } }[];
    };
    const transfer = json.commands.find((command) => command.TransferObjects);
    if (!transfer?.TransferObjects) throw new Error('no TransferObjects');
    json.inputs[transfer.TransferObjects.address.Input] = {
      Pure: { bytes: Buffer.from(THIEF.slice(2), 'hex').toString('base64') },
    };
    const redirected = { ...leg, transaction: JSON.stringify(json) };
    expect(verifyPlan({ ...plan, legs: [redirected] }, options).reasons.map((r) => r.code)).toEqual(
      ['unknown_destination'],
    );
    expect(
      await codes((tx) => {
        tx.moveCall({ target: `${THIEF}::drain::all`, arguments: [] });
      }),
    ).toEqual(['unknown_destination']);
    expect(
      await codes((tx) => {
        tx.splitCoins(tx.gas, [8_000_000n]);
      }),
    ).toEqual(['amount_mismatch']);
  });

  it('catches another sender and a missing plan id', async () => {
    const plan = await depositPlan({ kind: 'router' });
    const leg = plan.legs[0];
    if (!leg) throw new Error('no leg');
    const other = await tamper(leg, (tx) => tx.setSender(THIEF));
    expect(
      verifyPlan(
        withLeg(plan, 0, () => other),
        options,
      ).reasons.map((r) => r.code),
    ).toContain('sender_not_owner');
    const otherPlan = { ...plan, planId: newPlanId() };
    expect(verifyPlan(otherPlan, options).reasons.map((r) => r.code)).toEqual(['plan_tag_missing']);
  });

  it('verifies a withdrawal whose skim goes to a listed treasury, and names one not listed', async () => {
    const treasury = `0x${'7e'.repeat(32)}`;
    const planId = newPlanId();
    const built = await adapter.buildWithdraw({
      ...request(planId, { kind: 'venue', venue: NAVI }),
      skim: { recipient: treasury, amountMicros: 35_000n },
    });
    if (built.status !== 'prepared') throw new Error(JSON.stringify(built));
    const plan = planOf(planId, OWNER, built.legs as readonly UnsignedLeg[], {
      skim: { treasury, skimMicros: '35000' },
    });
    // Navi's withdrawal turns its Balance into a Coin with 0x2::coin::from_balance: listed here.
    const withdrawing = { ...options, venues: [...venues, `0x${'0'.repeat(63)}2`] };
    expect(verifyPlan(plan, { ...withdrawing, feeRecipients: [treasury] })).toMatchObject({
      status: 'verified',
      reasons: [],
    });
    expect(verifyPlan(plan, withdrawing).reasons).toEqual([
      expect.objectContaining({
        code: 'unknown_destination',
        message: expect.stringContaining(treasury),
      }),
    ]);
  });
});

// Issue 44: a plan's simulation is bound to its legs' bytes by digest; the verifier recomputes
// it offline for legs served as strings (Solana, Sui), so a leg swapped after the simulation
// ran (a PTB that also sends a coin elsewhere) is not vouched for by the honest leg's outcome.
describe('verifyPlan and the simulation bound to the bytes', () => {
  /** The engine's `legBytesDigest` (docs/simulation.md): sha256 of `<encoding>\n<transaction>`. */
  const digestOf = (leg: VerifiableLeg) =>
    `sha256:${createHash('sha256')
      .update(`${leg.encoding}\n${String(leg.transaction)}`)
      .digest('hex')}`;

  async function simulatedPlan() {
    const plan = await depositPlan({ kind: 'venue', venue: SUILEND });
    const simulation = {
      status: 'simulated',
      legs: plan.legs.map((leg) => ({ index: leg.index, bytesDigest: digestOf(leg) })),
      findings: [],
    };
    return { ...plan, simulation };
  }

  it('verifies a leg whose bytes are the ones simulated, and a plan not simulated', async () => {
    const plan = await simulatedPlan();
    expect(verifyPlan(plan, options)).toMatchObject({ status: 'verified' });
    const unavailable = { ...plan, simulation: { status: 'unavailable', findings: [] } };
    expect(verifyPlan(unavailable, options).status).toBe('verified');
  });

  it('rejects a leg swapped after the simulation: a PTB that also sends a coin elsewhere', async () => {
    const plan = await simulatedPlan();
    const swapped = await tamper(plan.legs[0]!, (tx) => {
      const [coin] = tx.splitCoins(tx.gas, [1_000_000n]);
      tx.transferObjects([coin!], THIEF);
    });
    const verdict = verifyPlan({ ...plan, legs: [swapped] }, options);
    expect(verdict.status).toBe('rejected');
    expect(verdict.reasons.map((reason) => reason.code).sort()).toEqual([
      'bytes_digest_mismatch',
      'unknown_destination',
    ]);
    const mismatch = verdict.reasons.find((reason) => reason.code === 'bytes_digest_mismatch');
    expect(mismatch?.message).toContain(plan.simulation.legs[0]?.bytesDigest);
  });

  it('a leg not simulated yet (deferred: it waits for leg 0) is no pass: incomplete, naming it', async () => {
    const plan = await simulatedPlan();
    const [leg] = plan.legs;
    const later = { ...leg!, index: 1 };
    const simulation = {
      ...plan.simulation,
      legs: [
        ...plan.simulation.legs,
        { index: 1, bytesDigest: digestOf(later), outcome: 'deferred', waitsFor: 0 },
      ],
    };
    const verdict = verifyPlan({ ...plan, legs: [leg!, later], simulation }, options);
    expect(verdict.status).toBe('incomplete');
    expect(verdict.reasons).toEqual([]);
    expect(verdict.gaps).toEqual([
      {
        code: 'simulation_deferred',
        leg: 1,
        message: expect.stringContaining(
          'leg 1 is not simulated yet: it runs on what leg 0 leaves',
        ),
      },
    ]);
    // Once simulated (the plan fetched again after leg 0 settled), it passes.
    const simulated = {
      ...simulation,
      legs: [...plan.simulation.legs, { index: 1, bytesDigest: digestOf(later), outcome: 'ok' }],
    };
    expect(
      verifyPlan({ ...plan, legs: [leg!, later], simulation: simulated }, options).status,
    ).toBe('verified');
  });
});
