// BENCH_ONLY=bridges: bridge plans prepared per second (the rail's fee from the local Iris fake,
// read at most once per SVC_CCTP_FEE_TTL_MS per lane and kept in between, the allowance from the
// Base anvil, the plan and its transfer stored) against one INSERT plus a fee read, in the same
// run; and the time from a relayed mint's receipt to its credit and to the `bridge.delivered`
// webhook, with the keeper at its default cadences.
// The plan reads the allowance for every plan and the fee once per TTL; the baseline reads the
// fee every time, with the client the rail uses (keep-alive node:http, `keepAliveFetch`), and its
// INSERT is a prepared statement, as the plan's is: the ratio is the plan's own extra work, not
// a difference of HTTP or SQL clients (with Node's fetch and an unnamed statement the baseline
// was slower than the plan on a loaded machine). The plan is stored as the API stores it, by the
// books' grouped plan writes (`db.plans`): plans prepared while a statement runs share the next.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { Pool } from 'pg';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import { keepAliveFetch } from '@yieldrouter/chain-evm';
import {
  confirmBridgeDelivery,
  createChainAdapters,
  createCctpRail,
  createWebhook,
  createWebhookSender,
  prepareBridgePlan,
  settleLeg,
} from '@yieldrouter/engine';
import { parseKeeperEnv, startKeeper } from '@yieldrouter/jobs';
import { createDatabase } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { pool, withDatabase } from './benchDatabase';

const PLANS = Number(process.env['BENCH_BRIDGE_PLANS'] ?? 200);
const CONCURRENCY = Number(process.env['BENCH_BRIDGE_CONCURRENCY'] ?? 4);
const DELIVERIES = Number(process.env['BENCH_BRIDGE_DELIVERIES'] ?? 12);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const SECRET = `bench-webhook-secret-${randomBytes(16).toString('hex')}`;
const AMOUNT = 25_000_000n;

const line = (text: string) => process.stdout.write(`${text}\n`);
const middle = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
const owner = anvilAccount(4);
const relayer = anvilAccount(6);
const FEE_RECIPIENT = anvilAccount(7).address;

function keeperConfig(databaseUrl: string, cctp: CctpBed, extra: Record<string, string> = {}) {
  return parseKeeperEnv({
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    SVC_KEEPER_PREFIX: `bench:${randomBytes(4).toString('hex')}`,
    SVC_KEEPER_HEALTH_PORT: '0',
    SVC_WEBHOOK_KEY_SECRET: SECRET,
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    ...cctp.settings,
    ...extra,
  });
}

function engineOf(config: ReturnType<typeof parseKeeperEnv>) {
  return {
    rail: createCctpRail({ bridges: config.bridges, chains: config.chains }),
    adapters: createChainAdapters({
      chains: config.chains,
      ids: config.onChainIds,
      switches: config.switches,
    }),
  };
}

const prepare = (db: Books, config: ReturnType<typeof parseKeeperEnv>) => {
  const { rail, adapters } = engineOf(config);
  return () =>
    prepareBridgePlan({
      db: db,
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
};

async function plansPerSecond(cctp: CctpBed): Promise<void> {
  await withDatabase(async (databaseUrl) => {
    const db = await createDatabase({ databaseUrl, poolSize: CONCURRENCY + 2 });
    const baseline = new Pool({ connectionString: databaseUrl, max: CONCURRENCY });
    // The database is dropped with (FORCE) at the end: a connection it ends must not throw.
    baseline.on('error', () => undefined);
    try {
      const config = keeperConfig(databaseUrl, cctp);
      const one = prepare(db, config);
      const warm = await one();
      if (warm.status !== 'prepared') throw new Error(`blocked: ${JSON.stringify(warm.blockers)}`);
      await baseline.query('CREATE TABLE bench_rows (id text PRIMARY KEY, body jsonb NOT NULL)');
      const feeUrl = `${cctp.iris.url}/v2/burn/USDC/fees/6/3`;
      const insert = async () => {
        const fee = (await (await keepAliveFetch(feeUrl)).json()) as unknown;
        await baseline.query({
          name: 'bench_insert',
          text: 'INSERT INTO bench_rows (id, body) VALUES ($1, $2)',
          values: [randomBytes(16).toString('hex'), JSON.stringify({ fee })],
        });
      };
      // Rounds alternate between the two so drift on a shared machine hits both alike; the
      // median of the per-round ratios is the result.
      const rounds: number[] = [];
      const ours: number[] = [];
      const theirs: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const planRate =
          PLANS /
          (await pool(
            Array.from({ length: PLANS }, () => one),
            CONCURRENCY,
          ));
        const baseRate =
          PLANS /
          (await pool(
            Array.from({ length: PLANS }, () => insert),
            CONCURRENCY,
          ));
        rounds.push(planRate / baseRate);
        ours.push(planRate);
        theirs.push(baseRate);
      }
      line(
        `bridges: plans prepared/s ${middle(ours).toFixed(0)} vs one INSERT + the rail fee read ` +
          `${middle(theirs).toFixed(0)}/s (medians) → ratio ${middle(rounds).toFixed(3)} (median ` +
          `of ${ROUNDS} rounds: ${rounds.map((r) => r.toFixed(3)).join(', ')}; ${CONCURRENCY} ` +
          `at a time; the plan reads the allowance from the node every time and the rail fee at ` +
          `most once per ${config.bridges.feeTtlMs} ms per lane; target >= 0.6)`,
      );
    } finally {
      await baseline.end();
      await db.close();
    }
  });
}

/** A receiver noting when each `bridge.delivered` event arrived, by plan. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const event = JSON.parse(body) as { type?: string; data?: { planId?: string } };
      const planId = event.data?.planId;
      if (event.type === 'bridge.delivered' && planId && !arrivals.has(planId)) {
        arrivals.set(planId, performance.now());
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, arrivals };
}

async function mintToCredit(cctp: CctpBed): Promise<void> {
  const receiver = await startReceiver();
  try {
    await withDatabase(async (databaseUrl) => {
      const db = await createDatabase({ databaseUrl, poolSize: 8 });
      try {
        await measureMintToCredit(db, databaseUrl, cctp, receiver);
      } finally {
        await db.close();
      }
    });
  } finally {
    receiver.server.close();
  }
}

async function measureMintToCredit(
  db: Books,
  databaseUrl: string,
  cctp: CctpBed,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
): Promise<void> {
  // Default cadences (bridge watch 10 s, outbox relay and webhook delivery 1 s); only the
  // jobs this measure does not need are off.
  const config = keeperConfig(databaseUrl, cctp, {
    SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
    SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
    SVC_KEEPER_AUTOPILOT_TICKS_EVERY_MS: '0',
    SVC_KEEPER_RECONCILIATION_EVERY_MS: '0',
  });
  const { rail, adapters } = engineOf(config);
  const sender = createWebhookSender({
    keySecret: SECRET,
    allowInsecureUrls: true,
    allowPrivateUrls: true,
    timeoutMs: 5000,
  });
  await createWebhook({
    db: db,
    cipher: sender.cipher,
    urlPolicy: sender.urlPolicy,
    owner: { keyId: 'bench-owner', wallets: ['*'] },
    input: { url: `${receiver.url}/hooks`, eventTypes: ['bridge.delivered'] },
    now: new Date(),
  });
  // Bridges in flight: the owner signs and the burns settle from their receipts.
  await cctp.base.fixtures.mintUsdc(owner.address, AMOUNT * BigInt(DELIVERIES));
  const planIds: string[] = [];
  for (let index = 0; index < DELIVERIES; index += 1) {
    const plan = await prepare(db, config)();
    if (plan.status !== 'prepared' || !plan.planId) throw new Error('bridge plan blocked');
    for (const leg of plan.legs ?? []) {
      const tx = (leg as unknown as { transaction: { to: string; data: string } }).transaction;
      const txId = await cctp.send('base', tx, owner.privateKey);
      if (!leg.settles) continue;
      await settleLeg({
        db: db,
        adapters,
        venues: config.venues,
        bridgeRail: rail,
        planId: plan.planId,
        legIndex: leg.index,
        txId,
        now: new Date(),
      });
    }
    planIds.push(plan.planId);
  }
  const keeper = await startKeeper({ db, config, logger: pino({ level: 'silent' }) });
  try {
    // A relayer mints each message, spread over the watch's period.
    const minted = new Map<string, number>();
    for (const planId of planIds) {
      const next = await confirmBridgeDelivery({
        db: db,
        rail,
        adapters,
        planId,
        now: new Date(),
      });
      const leg = (next as { mintLeg?: { transaction: { to: string; data: string } } }).mintLeg;
      if (!leg) throw new Error(`no mint leg for ${planId}`);
      await cctp.send('arbitrum', leg.transaction, relayer.privateKey);
      minted.set(planId, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 850));
    }
    const deadline = Date.now() + 60_000;
    while (receiver.arrivals.size < minted.size && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const credited = await db.bridgeTransfer.findMany({
      where: { planId: { in: planIds } },
      select: { planId: true, deliveredAt: true },
    });
    // Wall clock of the credit against the mint's receipt (both on this machine).
    const wallOffset = Date.now() - performance.now();
    const toCredit = credited
      .map(({ planId, deliveredAt }) =>
        deliveredAt ? deliveredAt.getTime() - wallOffset - (minted.get(planId) ?? NaN) : NaN,
      )
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const toWebhook = [...minted]
      .map(([planId, at]) => (receiver.arrivals.get(planId) ?? NaN) - at)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    if (toWebhook.length !== minted.size || toCredit.length !== minted.size) {
      throw new Error(
        `${toCredit.length} credited, ${toWebhook.length} webhooks of ${minted.size}`,
      );
    }
    line(
      `bridges: mint receipt → credit p50 ${percentile(toCredit, 50).toFixed(0)} ms, p99 ` +
        `${percentile(toCredit, 99).toFixed(0)} ms; → bridge.delivered webhook p50 ` +
        `${percentile(toWebhook, 50).toFixed(0)} ms, p99 ${percentile(toWebhook, 99).toFixed(0)} ms ` +
        `(${minted.size} bridges; bridge watch every ${config.keeper.everyMs['bridge-watch']} ms, ` +
        `relay and delivery every ${config.keeper.everyMs['outbox-relay']} ms)`,
    );
  } finally {
    await keeper.close();
  }
}

export async function runBridgeBench(): Promise<void> {
  const cctp = await startCctpBed({ feeRecipient: FEE_RECIPIENT });
  try {
    await cctp.base.fixtures.mintUsdc(owner.address, AMOUNT);
    await plansPerSecond(cctp);
    await mintToCredit(cctp);
  } finally {
    await cctp.stop();
  }
}
