import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import {
  confirmBridgeDelivery,
  createChainAdapters,
  createCctpRail,
  prepareBridgePlan,
  watchBridgeDeliveries,
} from '@yieldrouter/engine';
import { markLegSubmitted, readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import type { KeeperTestBed } from '@yieldrouter/jobs/testing';
import { startKeeperTestBed, waitFor } from '@yieldrouter/jobs/testing';
import type { KeeperProcess } from './testing/keeperProcess';
import { spawnKeeper } from './testing/keeperProcess';

// The keeper's bridge watch as its own process, on the two-anvil CCTP bed: the keeper settles
// the fee and burn legs (in flight), is SIGKILLed before the mint, a relayer mints on Arbitrum,
// and the restarted keeper finds the mint by its nonce and credits it — exactly once, however
// often the delivery is looked at or reported afterwards.

jest.setTimeout(180_000);

const owner = anvilAccount(4);
const relayer = anvilAccount(6);
const FEE_RECIPIENT = anvilAccount(7).address;
const AMOUNT = 25_000_000n;

let bed: KeeperTestBed;
let cctp: CctpBed;
const children: KeeperProcess[] = [];

beforeAll(async () => {
  [bed, cctp] = await Promise.all([
    startKeeperTestBed(),
    startCctpBed({ feeRecipient: FEE_RECIPIENT }),
  ]);
  await cctp.base.fixtures.mintUsdc(owner.address, AMOUNT);
}, 120_000);
afterEach(() => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
});
afterAll(async () => {
  await bed?.close();
  await cctp?.stop();
});

const keeper = () => {
  const child = spawnKeeper(
    bed.env({
      ...cctp.settings,
      LOG_LEVEL: 'info',
      SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '300',
      SVC_KEEPER_BRIDGE_WATCH_EVERY_MS: '300',
      SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
      SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
      SVC_KEEPER_RECONCILIATION_EVERY_MS: '0',
      SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
      SVC_KEEPER_AUTOPILOT_TICKS_EVERY_MS: '0',
      SVC_KEEPER_LOCK_MS: '2000',
      SVC_KEEPER_HEARTBEAT_MS: '500',
    }),
  );
  children.push(child);
  return child;
};
const tail = (child: KeeperProcess) => `keeper output:\n${child.output().slice(-3000)}`;

describe('keeper bridge watch (process)', () => {
  it('SIGKILL between burn and mint, restart: the relayed mint is credited exactly once', async () => {
    const db = bed.database.db;
    const config = bed.config({ ...cctp.settings });
    const rail = createCctpRail({ bridges: config.bridges, chains: config.chains });
    const adapters = createChainAdapters({
      chains: config.chains,
      ids: config.onChainIds,
      switches: config.switches,
    });
    const plan = await prepareBridgePlan({
      db,
      adapters,
      bridges: config.bridges,
      rail,
      request: {
        sourceChain: 'base',
        destChain: 'arbitrum',
        amountMicros: AMOUNT,
        sourceAddress: owner.address,
        destinationAddress: owner.address,
      },
      now: new Date(),
    });
    const planId = plan.planId;
    if (plan.status !== 'prepared' || !plan.legs || !planId) {
      throw new Error(JSON.stringify(plan.blockers));
    }
    // The owner signs and sends every leg; the settling ones are recorded as submitted.
    for (const leg of plan.legs) {
      const tx = (leg as unknown as { transaction: { to: string; data: string } }).transaction;
      const hash = await cctp.send('base', tx, owner.privateKey);
      if (leg.settles) {
        await markLegSubmitted(db, { planId, legIndex: leg.index, txId: hash, now: new Date() });
      }
    }
    const balance = async (chain: string, bucket: string, wallet: string | null = owner.address) =>
      (await db.ledgerAccount.findFirst({ where: { wallet, chain, bucket } }))?.balanceMicros ?? 0n;

    const first = keeper();
    await waitFor(
      async () => ((await balance('base', 'in_flight')) > 0n ? true : undefined),
      60_000,
      'the burn settled into in_flight',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${tail(first)}`);
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const burned = await balance('base', 'in_flight');
    expect(burned).toBe(AMOUNT - 25_000n);
    expect(await balance('arbitrum', 'liquid')).toBe(0n);

    // While the keeper is down, a relayer mints the attested message on Arbitrum.
    const next = await confirmBridgeDelivery({ db, rail, adapters, planId, now: new Date() });
    const mintLeg = (next as { mintLeg?: { transaction: { to: string; data: string } } }).mintLeg;
    if (!mintLeg) throw new Error(`no mint leg: ${JSON.stringify(next)}`);
    const mintTx = await cctp.send('arbitrum', mintLeg.transaction, relayer.privateKey);

    const second = keeper();
    await waitFor(
      async () => ((await balance('arbitrum', 'liquid')) > 0n ? true : undefined),
      60_000,
      'the delivery credited after the restart',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${tail(second)}`);
    });
    // A few more runs of the watch, then a clean stop.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // Looked at again and reported again: replays.
    expect(
      await watchBridgeDeliveries({ db, rail, adapters, pageSize: 10, now: () => new Date() }),
    ).toMatchObject({ delivered: 0, errors: 0 });
    expect(
      await confirmBridgeDelivery({
        db,
        rail,
        adapters,
        planId,
        destTxId: mintTx,
        now: new Date(),
      }),
    ).toMatchObject({ credited: false, replay: true });

    expect(await balance('arbitrum', 'liquid')).toBe(burned);
    expect(await balance('base', 'in_flight')).toBe(0n);
    // A system account: its row plus its shards (migration 0050).
    expect(await readAccountBalance(db, { system: 'fees:protocol' })).toBe(25_000n);
    const entries = await db.journalEntry.count({ where: { planId, kind: 'bridge_delivery' } });
    expect(entries).toBe(1);
    const events = await db.outboxEvent.findMany({ where: { wallet: owner.address } });
    expect(events.filter((event) => event.type === 'bridge.delivered')).toHaveLength(1);
    expect(
      events.filter(
        (event) =>
          event.type === 'position.updated' &&
          (event.payload as { txId?: string }).txId === mintTx.toLowerCase(),
      ),
    ).toHaveLength(1);
    expect((await verifyLedger(db)).ok).toBe(true);
  });
});
