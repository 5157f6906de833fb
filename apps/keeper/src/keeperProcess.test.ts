import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { SolanaBed } from '@yieldrouter/chain-beds/solana';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import { createChainAdapters, prepareRoute } from '@yieldrouter/engine';
import { markLegSubmitted, readBalancesOf, verifyLedger } from '@yieldrouter/ledger';
import { JOB_NAMES, readKeeperSurvival } from '@yieldrouter/jobs';
import type { KeeperTestBed } from '@yieldrouter/jobs/testing';
import { startKeeperTestBed, waitFor } from '@yieldrouter/jobs/testing';
import type { KeeperProcess } from './testing/keeperProcess';
import { spawnKeeper } from './testing/keeperProcess';
import type { SlowProxy } from './testing/slowProxy';
import { startSlowProxy } from './testing/slowProxy';
import { parseMetrics, sampleValue } from '@yieldrouter/metrics/testing';

// The keeper as its own process, against a local Solana (litesvm behind JSON-RPC) reached
// through a slow proxy so a settlement batch takes seconds: SIGKILL in the middle of it and a
// restart lose nothing and double nothing; SIGTERM lets the running batch finish, then exits 0.

jest.setTimeout(120_000);

const AMOUNT = 1_000_000n;

let bed: KeeperTestBed;
let solana: SolanaBed;
let proxy: SlowProxy;
let chainEnv: Record<string, string>;
const children: KeeperProcess[] = [];

beforeAll(async () => {
  [bed, solana] = await Promise.all([startKeeperTestBed(), startSolanaBed()]);
  proxy = await startSlowProxy(solana.rpcUrl, 300);
  // The route legs run our router program's deposit: it is deployed in the bed.
  const router = deployYieldRouter(solana);
  chainEnv = {
    SVC_RPC_TIMEOUT_MS: '5000',
    SVC_SOLANA_USDC_MINT: solana.usdcMint,
    SVC_SOLANA_PROGRAM_ID: router.programId,
    SVC_SOLANA_YIELD_ROUTER: router.yieldRouter,
    SVC_SOLANA_ADAPTER_REGISTRY: router.adapterRegistry,
  };
});
afterEach(() => {
  for (const child of children.splice(0)) child.child.kill('SIGKILL');
});
afterAll(async () => {
  await bed?.close();
  await proxy?.close();
  await solana?.stop();
});

/** Route plans the owner signs and the local SVM runs; their txIds recorded as submitted. */
async function submittedLegs(count: number): Promise<{ wallet: string; planIds: string[] }> {
  const config = bed.config({ ...chainEnv, SVC_SOLANA_RPC_URL: solana.rpcUrl });
  const adapters = createChainAdapters({
    chains: config.chains,
    ids: config.onChainIds,
    switches: config.switches,
  });
  const owner = solana.createFundedKeypair();
  solana.mintUsdc(owner.publicKey, AMOUNT * BigInt(count));
  const wallet = owner.publicKey.toBase58();
  const planIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const plan = await prepareRoute({
      db: bed.database.db,
      adapters,
      venues: config.venues,
      opportunities: [],
      autoYieldVenueId: null,
      address: wallet,
      input: { amountMicros: AMOUNT, token: 'USDC', stake: false, chain: 'solana' },
      now: new Date(),
    });
    const leg = plan.legs?.[0];
    if (!leg || !plan.planId) throw new Error(`no leg: ${JSON.stringify(plan.blockers)}`);
    const tx = VersionedTransaction.deserialize(Buffer.from(String(leg.transaction), 'base64'));
    tx.sign([owner]);
    const outcome = solana.send(tx);
    if ('err' in outcome && outcome.err) throw new Error(JSON.stringify(outcome));
    await markLegSubmitted(bed.database.db, {
      planId: plan.planId,
      legIndex: 0,
      txId: bs58.encode(tx.signatures[0] as Uint8Array),
      now: new Date(),
    });
    planIds.push(plan.planId);
  }
  return { wallet, planIds };
}

const keeper = () => {
  const child = spawnKeeper(
    bed.env({
      ...chainEnv,
      SVC_SOLANA_RPC_URL: proxy.url,
      LOG_LEVEL: 'info',
      SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '300',
      SVC_KEEPER_SETTLEMENT_PAGE_SIZE: '3',
      SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
      SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
      SVC_KEEPER_LOCK_MS: '2000',
      SVC_KEEPER_HEARTBEAT_MS: '500',
    }),
  );
  children.push(child);
  return child;
};

const confirmed = async (planIds: string[]) =>
  bed.database.db.planLeg.count({
    where: { planId: { in: planIds }, legIndex: 0, status: 'confirmed' },
  });
const survival = () =>
  readKeeperSurvival({ redis: bed.redis, prefix: bed.prefix, jobs: JOB_NAMES, now: new Date() });
const describeChild = (child: KeeperProcess) => `keeper output:\n${child.output().slice(-3000)}`;

describe('keeper process', () => {
  it('SIGKILL mid-batch, restart: every leg settled exactly once, books exact', async () => {
    const { wallet, planIds } = await submittedLegs(10);
    const first = keeper();
    // Kill it once the batch is under way and not done.
    const atKill = await waitFor(
      async () => {
        const done = await confirmed(planIds);
        return done >= 2 ? done : undefined;
      },
      60_000,
      'the first settlements',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${describeChild(first)}`);
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const afterKill = await confirmed(planIds);
    expect(atKill).toBeLessThan(planIds.length);
    expect(afterKill).toBeLessThan(planIds.length);

    const second = keeper();
    await waitFor(
      async () => ((await confirmed(planIds)) === planIds.length ? true : undefined),
      60_000,
      'every leg settled after the restart',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${describeChild(second)}`);
    });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const db = bed.database.db;
    expect((await verifyLedger(db)).ok).toBe(true);
    // One settlement entry and two events per leg: nothing lost, nothing doubled.
    const entries = await db.journalEntry.groupBy({
      by: ['planId'],
      where: { planId: { in: planIds }, kind: 'route.settled' },
      _count: true,
    });
    expect(entries).toHaveLength(planIds.length);
    for (const entry of entries) expect(entry._count).toBe(1);
    const events = await db.outboxEvent.findMany({ where: { wallet } });
    expect(events.filter((event) => event.type === 'deposit.settled')).toHaveLength(10);
    expect(events.filter((event) => event.type === 'position.updated')).toHaveLength(10);
    const balances = await readBalancesOf(db, [wallet]);
    const of = (bucket: string) => balances.find((row) => row.bucket === bucket)?.balanceMicros;
    expect(of('liquid')).toBe(AMOUNT * 10n);
    expect(of('pending_in') ?? 0n).toBe(0n);
  });

  it('SIGTERM: the running batch finishes, the heartbeat is withdrawn, exit 0', async () => {
    const { planIds } = await submittedLegs(6);
    const child = keeper();
    await waitFor(
      async () => ((await confirmed(planIds)) >= 1 ? true : undefined),
      60_000,
      'a settlement',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${describeChild(child)}`);
    });
    expect((await survival()).alive).toBe(true);
    // Its /metrics (health port, logged): the ops gauges and this process's job metrics. Its logs
    // are flushed every second, so the line may come after the first settlement.
    const port = await waitFor(
      async () => /"port":(\d+)[^\n]*keeper health at/.exec(child.output())?.[1],
      10_000,
      'the health port in the log',
    );
    const scrape = async () =>
      parseMetrics(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    // Mid-batch: the settled leg's latency and the run's queue lag are already recorded.
    const samples = await waitFor(
      async () => {
        const scraped = await scrape();
        const settled = sampleValue(scraped, 'svc_settlement_latency_seconds_count', {
          chain: 'solana',
          outcome: 'confirmed',
        });
        return settled !== undefined && settled >= 1 ? scraped : undefined;
      },
      10_000,
      'a settlement in /metrics',
    );
    expect(sampleValue(samples, 'svc_keeper_up')).toBe(1);
    expect(
      sampleValue(samples, 'svc_keeper_job_lag_seconds_count', { job: 'settlement-watch' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'svc_webhook_pending_deliveries')).toBeGreaterThanOrEqual(0);
    child.child.kill('SIGTERM');
    expect([await child.exited, describeChild(child)]).toEqual([0, expect.anything()]);
    // The batch it was running when told to stop ran to its end: every leg settled.
    expect(await confirmed(planIds)).toBe(planIds.length);
    const after = await survival();
    expect(after.alive).toBe(false);
    expect(after.jobs.find((job) => job.job === 'settlement-watch')?.lastRun?.ok).toBe(true);
    expect(describeChild(child)).toContain('keeper stopped');
  });

  it('refuses to start without PostgreSQL, naming the setting', async () => {
    const env = bed.env();
    delete env['DATABASE_URL'];
    const child = spawnKeeper(env);
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('configuration error: DATABASE_URL is required');
  });

  it('refuses to start without Redis, saying so', async () => {
    const child = spawnKeeper(bed.env({ REDIS_URL: 'redis://127.0.0.1:1' }));
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('keeper failed to start: Redis at 127.0.0.1:1 is unreachable');
  });
});
