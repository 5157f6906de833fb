import request from 'supertest';
import { dailyApySamples } from '@yieldrouter/engine/src/venues/testing/dailyApySamples';
import { insertApySamples, verifyLedger } from '@yieldrouter/ledger';
import {
  AutopilotHistory,
  AutopilotState,
  AutopilotTickResult,
  StoredPlanDocument,
} from '@yieldrouter/schemas';
import { testKeys } from './testing/startTestApp';
import type { SolanaRouterApp } from './testing/solanaRouterApp';
import {
  settledPlan,
  signAndExecuteLeg,
  stakedInVenue,
  stakedKaminoOwner,
  startSolanaRouterApp,
} from './testing/solanaRouterApp';

// The whole autopilot cycle on the Solana bed (our router program, the kamino and jupiter-lend
// stand-ins): the owner stakes in kamino and enables the autopilot; the keeper's scheduled tick
// finds jupiter-lend 7.00 pp better on its 30-day mean and prepares the rebalance; the owner signs
// and executes both legs; settlement moves staked kamino → jupiter-lend; history shows the record.

let bed: SolanaRouterApp;
beforeAll(async () => {
  bed = await startSolanaRouterApp({
    secondVenue: true,
    env: { SVC_KEEPER_AUTOPILOT_TICKS_EVERY_MS: '300' },
  });
});
afterAll(() => bed?.close());

const api = (method: 'get' | 'post', path: string, body?: object) => {
  const call = request(bed.t.app)[method](`/api/v1${path}`).set('X-API-Key', testKeys.owner);
  return body === undefined ? call : call.send(body);
};

/** Five daily samples of `bps` (the 30-day mean is `bps`), as the APY refresh stores them. */
const setMean = (venueId: string, bps: number) =>
  insertApySamples(bed.t.db, dailyApySamples(venueId, bps));

/** The keeper's first tick of the wallet, once it has run. */
async function keeperTick(wallet: string) {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const history = AutopilotHistory.parse(
      (await api('get', `/wallets/${wallet}/autopilot/history`).expect(200)).body,
    );
    const tick = history.decisions.find((decision) => decision.kind === 'tick');
    if (tick) return tick;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the keeper never ticked ${wallet}`);
}

it('enabled wallet → keeper tick switches → owner signs both legs → staked moves → history', async () => {
  await setMean('kamino', 500);
  await setMean('jupiter-lend', 1200);
  const owner = await stakedKaminoOwner(bed, 15_000_000n);
  const wallet = owner.publicKey.toBase58();
  await api('post', `/wallets/${wallet}/autopilot/enable`, { chain: 'solana' }).expect(200);

  const decision = await keeperTick(wallet);
  expect(decision).toMatchObject({
    outcome: 'switch',
    reason: 'challenger_clears_threshold',
    deltaBps: 700,
    incumbent: { venueId: 'kamino', stakedMicros: '15000000' },
    challenger: { venueId: 'jupiter-lend', apyMean30dBps: 1200 },
    withinChainOnly: true,
    crossChainRebalance: false,
    bridge: null,
  });
  const plan = StoredPlanDocument.parse(
    (await api('get', `/svc/plans/${decision.planId}`).expect(200)).body,
  );
  expect(plan).toMatchObject({
    kind: 'rebalance',
    status: 'prepared',
    ownerMustSign: true,
    submitted: false,
    amountMicros: '15000000',
  });
  expect(plan.legs.map((leg) => leg.action)).toEqual(['withdraw', 'deposit']);
  // Nothing moved yet, and a tick in the same period answers the same decision.
  expect(await stakedInVenue(bed.t, wallet, 'kamino')).toBe('15000000');
  const again = AutopilotTickResult.parse(
    (await api('post', `/wallets/${wallet}/autopilot/tick`, {}).expect(200)).body,
  );
  expect(again).toMatchObject({ replayed: true, decision: { decisionId: decision.decisionId } });

  await signAndExecuteLeg(bed.t, plan, owner, 0);
  await settledPlan(bed.t, plan.planId ?? '', 0);
  await signAndExecuteLeg(bed.t, plan, owner, 1);
  const done = await settledPlan(bed.t, plan.planId ?? '', 1);
  expect(done.legs.map((leg) => leg.status)).toEqual(['confirmed', 'confirmed']);
  expect(await stakedInVenue(bed.t, wallet, 'kamino')).toBe('0');
  expect(await stakedInVenue(bed.t, wallet, 'jupiter-lend')).toBe('15000000');
  expect((await verifyLedger(bed.t.db)).problems).toEqual([]);

  const state = AutopilotState.parse(
    (await api('get', `/wallets/${wallet}/autopilot`).expect(200)).body,
  );
  expect(state).toMatchObject({
    incumbent: { venueId: 'jupiter-lend', stakedMicros: '15000000' },
    lastDecision: { decisionId: decision.decisionId, planId: plan.planId },
  });
  expect(Date.parse(state.nextTick?.dueAt ?? '')).toBeGreaterThan(Date.now());
}, 60_000);
