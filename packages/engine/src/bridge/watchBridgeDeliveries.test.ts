import {
  BRIDGE_TEST_BURNED,
  BRIDGE_TEST_OWNER,
  createTestDatabase,
  failSettledBridge,
  insertSettledBridge as settledBridge,
} from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { answeringRail } from './bridgeTestBed';
import { parseCctpSettings, CctpSettingsSchema } from './cctpSettings';
import { confirmBridgeDelivery } from './confirmBridgeDelivery';
import { watchBridgeDeliveries } from './watchBridgeDeliveries';

// The keeper's bridge watch on real PostgreSQL with a rail that answers as told: a bridge in
// flight is looked at every pass; a failed one (still deliverable: its mint may come late) only
// once per `failedWatchMs` (SVC_BRIDGE_FAILED_WATCH_MS), and its late mint is credited once.

const SECOND = 1000;
const FAILED_WATCH_MS = 5 * 60 * SECOND;

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

const fail = (planId: string, now: Date) => failSettledBridge(test.db, planId, now);

it('SVC_BRIDGE_FAILED_WATCH_MS: 5 min by default, validated, read into the bridges config', () => {
  const parse = (env: Record<string, string>) =>
    parseCctpSettings(CctpSettingsSchema.parse(env)).failedWatchMs;
  expect(parse({})).toBe(FAILED_WATCH_MS);
  expect(parse({ SVC_BRIDGE_FAILED_WATCH_MS: '60000' })).toBe(60_000);
  for (const bad of ['0', '999', '1.5', 'soon', String(8 * 86_400_000)]) {
    expect(CctpSettingsSchema.safeParse({ SVC_BRIDGE_FAILED_WATCH_MS: bad }).success).toBe(false);
  }
});

it('looks at a failed bridge once per failedWatchMs, not every pass; its late mint credits once', async () => {
  const db = test.db;
  const t0 = new Date(Date.now() - 60 * 60 * SECOND);
  const failed = await settledBridge(db, { speed: 'standard', settledAt: t0 });
  const inFlight = await settledBridge(db, { speed: 'standard', settledAt: t0 });
  await fail(failed.planId, t0);

  // Attested; the failed bridge's mint is not there until `minted` is set.
  const looked: string[] = [];
  const nonceOf = (burnTxId: string) => (burnTxId === failed.burnTxId ? '0x0f' : '0x01');
  let minted = false;
  const mintTx = `0x${'ab'.repeat(32)}`;
  const rail = answeringRail({
    readAttestation: async (_lane, burnTxId) => {
      looked.push(burnTxId);
      return { status: 'complete', message: '0x00', attestation: '0x00', nonce: nonceOf(burnTxId) };
    },
    findMint: async ({ nonce }) =>
      nonce === '0x0f' && minted ? { status: 'found', txId: mintTx } : { status: 'not_found' },
    readMint: async ({ txId }) => ({
      status: 'confirmed',
      txId,
      amountMicros: BRIDGE_TEST_BURNED,
      feeMicros: 0n,
    }),
  });
  const pass = async (at: Date) => {
    looked.length = 0;
    const counts = await watchBridgeDeliveries({
      db,
      rail,
      adapters: {},
      pageSize: 1,
      failedWatchMs: FAILED_WATCH_MS,
      now: () => at,
    });
    // Which bridges were looked at (a credit reads the attestation again: once each here).
    return { counts, looked: [...new Set(looked)].sort() };
  };
  const both = [failed.burnTxId, inFlight.burnTxId].sort();

  // First pass: both looked at (the failed one never was since it failed).
  expect(await pass(new Date(t0.getTime() + 10 * SECOND))).toEqual({
    counts: { delivered: 0, awaitingAttestation: 0, awaitingMint: 2, refused: 0, errors: 0 },
    looked: both,
  });
  // The next passes within the interval: only the one in flight.
  for (const after of [20, 150, 305]) {
    expect((await pass(new Date(t0.getTime() + after * SECOND))).looked).toEqual([
      inFlight.burnTxId,
    ]);
  }
  // The mint happens late; once the interval has passed since its last look, it is credited.
  minted = true;
  expect((await pass(new Date(t0.getTime() + 250 * SECOND))).looked).toEqual([inFlight.burnTxId]);
  const late = await pass(new Date(t0.getTime() + 311 * SECOND));
  expect(late).toEqual({
    counts: { delivered: 1, awaitingAttestation: 0, awaitingMint: 1, refused: 0, errors: 0 },
    looked: both,
  });

  // Delivered: never listed again, and reported again it is a replay. Credited once.
  expect((await pass(new Date(t0.getTime() + 3600 * SECOND))).looked).toEqual([inFlight.burnTxId]);
  await expect(
    confirmBridgeDelivery({
      db,
      rail,
      adapters: {},
      planId: failed.planId,
      destTxId: mintTx,
      now: new Date(),
    }),
  ).resolves.toMatchObject({ credited: false, replay: true, bridgeStatus: 'delivered' });
  expect(
    await db.journalEntry.count({ where: { planId: failed.planId, kind: 'bridge_delivery' } }),
  ).toBe(1);
  const liquid = await db.ledgerAccount.findFirst({
    where: { wallet: BRIDGE_TEST_OWNER, chain: 'arbitrum', bucket: 'liquid' },
  });
  expect(liquid?.balanceMicros).toBe(BRIDGE_TEST_BURNED);
  const delivered = (await db.outboxEvent.findMany({ where: { type: 'bridge.delivered' } })).filter(
    (event) => (event.payload as { planId?: string }).planId === failed.planId,
  );
  expect(delivered).toHaveLength(1);
});

it('an unreadable source is not a look: the failed bridge is tried again on the next pass', async () => {
  const db = test.db;
  const t0 = new Date(Date.now() - 60 * 60 * SECOND);
  const failed = await settledBridge(db, { speed: 'fast', settledAt: t0 });
  await fail(failed.planId, t0);
  let calls = 0;
  const rail = answeringRail({
    readAttestation: async (_lane, burnTxId) => {
      if (burnTxId === failed.burnTxId) calls += 1;
      return { status: 'unavailable', detail: 'no answer' };
    },
    findMint: async () => ({ status: 'not_found' }),
  });
  for (const after of [10, 20]) {
    await watchBridgeDeliveries({
      db,
      rail,
      adapters: {},
      pageSize: 50,
      failedWatchMs: FAILED_WATCH_MS,
      now: () => new Date(t0.getTime() + after * SECOND),
    });
  }
  expect(calls).toBe(2);
});
