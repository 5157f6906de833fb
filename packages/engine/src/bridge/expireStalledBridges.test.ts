import {
  BRIDGE_TEST_OWNER,
  createTestDatabase,
  insertSettledBridge,
} from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { BridgeAttestation, BridgeRail } from './bridgeRail';
import { answeringRail } from './bridgeTestBed';
import { expireStalledBridges } from './expireStalledBridges';

// The keeper's bridge expiry on real PostgreSQL: which bridges are past their speed's window,
// that a failure is written once with one bridge.failed and no posting, that an attested bridge
// is left for its mint (a failed bridge's delivery by its rescue mint: bridge.rescue.flow.test).

const OWNER = BRIDGE_TEST_OWNER;
const MINUTE = 60_000;
const windows = { attestationWindowMs: { standard: 60 * MINUTE, fast: 5 * MINUTE } };

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

/** A bridge plan whose burn settled `minutesAgo` before `now` (in_flight holds it). */
async function settledBridge(speed: 'standard' | 'fast', now: Date, minutesAgo: number) {
  const settledAt = new Date(now.getTime() - minutesAgo * MINUTE);
  return (await insertSettledBridge(test.db, { speed, settledAt })).planId;
}

/** A rail that only answers attestations, as `answer` says per burn. */
const attestingRail = (answer: (burnTxId: string) => BridgeAttestation): BridgeRail =>
  answeringRail({ readAttestation: async (_lane, burnTxId) => answer(burnTxId) });

const failedEvents = async (planId: string) =>
  (await test.db.outboxEvent.findMany({ where: { type: 'bridge.failed' } })).filter(
    (event) => (event.payload as { planId?: string }).planId === planId,
  );

it('fails each bridge past its speed window once; attested and fresh ones are left', async () => {
  const now = new Date();
  const staleStandard = await settledBridge('standard', now, 61);
  const freshStandard = await settledBridge('standard', now, 30);
  const staleFast = await settledBridge('fast', now, 6);
  const attestedFast = await settledBridge('fast', now, 10);
  const attestedBurn = (
    await test.db.planLeg.findFirst({
      where: { planId: attestedFast },
    })
  )?.txId;
  const rail = attestingRail((burnTxId) =>
    burnTxId === attestedBurn
      ? { status: 'complete', message: '0x00', attestation: '0x00', nonce: '0x01' }
      : { status: 'pending', detail: 'attestation pending_confirmations' },
  );
  const journalBefore = await test.db.journalEntry.count();

  expect(await expireStalledBridges({ db: test.db, rail, bridges: windows, now })).toEqual({
    failed: 2,
    attested: 1,
    skipped: 0,
    deferred: 0,
  });
  for (const planId of [staleStandard, staleFast]) {
    const events = await failedEvents(planId);
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      planId,
      amountMicros: '9990000',
      refundTo: OWNER,
      reason: expect.stringMatching(/^attestation_window_expired: .* pending_confirmations$/),
      rescue: { method: 'POST', path: '/api/v1/svc/bridge/rescue' },
    });
  }
  expect(await failedEvents(freshStandard)).toHaveLength(0);
  expect(await failedEvents(attestedFast)).toHaveLength(0);
  // Nothing posted: the amounts stay in flight.
  expect(await test.db.journalEntry.count()).toBe(journalBefore);

  // Again: nothing new (failed ones are not listed; the attested one is still left).
  expect(await expireStalledBridges({ db: test.db, rail, bridges: windows, now })).toEqual({
    failed: 0,
    attested: 1,
    skipped: 0,
    deferred: 0,
  });
  expect(await failedEvents(staleStandard)).toHaveLength(1);
});

it('an unreadable attestation service past the window fails the bridge too; no rail fails none', async () => {
  const now = new Date();
  const stale = await settledBridge('standard', now, 120);
  expect(
    await expireStalledBridges({ db: test.db, rail: undefined, bridges: windows, now }),
  ).toEqual({ failed: 0, attested: 0, skipped: 0, deferred: 0 });
  const down = attestingRail(() => ({ status: 'unavailable', detail: 'no answer' }));
  const counts = await expireStalledBridges({
    db: test.db,
    rail: down,
    bridges: windows,
    now,
  });
  expect(counts.failed).toBeGreaterThanOrEqual(1);
  expect(await failedEvents(stale)).toHaveLength(1);
});

it('a read this process did not send (budget spent, 429 hold-off) defers the bridge: nothing failed', async () => {
  const now = new Date();
  const stale = await settledBridge('standard', now, 90);
  const held = attestingRail(() => ({
    status: 'unavailable',
    detail: 'the attestation service asked us to wait (429) until 2026-11-27T18:05:00.000Z',
    notAsked: true,
  }));
  const counts = await expireStalledBridges({
    db: test.db,
    rail: held,
    bridges: windows,
    now,
  });
  expect(counts.failed).toBe(0);
  expect(counts.deferred).toBeGreaterThanOrEqual(1);
  expect(await failedEvents(stale)).toHaveLength(0);
  // The next run with a real answer (still pending) fails it, once.
  const pending = attestingRail(() => ({ status: 'pending', detail: 'pending_confirmations' }));
  await expireStalledBridges({ db: test.db, rail: pending, bridges: windows, now });
  expect(await failedEvents(stale)).toHaveLength(1);
});
