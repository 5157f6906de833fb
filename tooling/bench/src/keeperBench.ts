// BENCH_ONLY=keeper: webhook deliveries per second to a loopback receiver (against plain POSTs
// of the same bodies over the same kind of connection, measured in the same run), the
// commit-to-delivery latency with the keeper running on BullMQ, and harvest-batch wallets per
// second (against reading each wallet's staked positions).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import {
  createWebhook,
  createWebhookSender,
  deliverDue,
  harvestBatch,
  relayOutbox,
} from '@yieldrouter/engine';
import { fakeBase58, fakeChain } from '@yieldrouter/engine/src/wallet/testing/fakeChain';
import {
  FAKE_STAKE_VENUE,
  fakeStakeVenues,
  seedFakeStakeOpportunities,
  stakeWallets,
} from '@yieldrouter/engine/src/wallet/testing/stakeOnFakeChain';
import { parseKeeperEnv, startKeeper } from '@yieldrouter/jobs';
import { createDatabase, insertOutboxEvents, readStakedPositions } from '@yieldrouter/ledger';
import type { Books, OutboxEventInput } from '@yieldrouter/ledger';
import type { PositionUpdatedData } from '@yieldrouter/schemas';
import { pool, withDatabase } from './benchDatabase';
import { reconcileWalletsAtScale } from './reconcileBench';

const SUBSCRIPTIONS = Number(process.env['BENCH_WEBHOOK_SUBSCRIPTIONS'] ?? 4);
const EVENTS = Number(process.env['BENCH_WEBHOOK_EVENTS'] ?? 750);
const LATENCY_EVENTS = Number(process.env['BENCH_WEBHOOK_LATENCY_EVENTS'] ?? 100);
const HARVEST_WALLETS = Number(process.env['BENCH_HARVEST_WALLETS'] ?? 200);
// The relay's and delivery's poll, as deployed (1 s) unless told: a commit wakes both (0051).
const POLL_MS = process.env['BENCH_WEBHOOK_POLL_MS'] ?? '1000';
const SECRET = `bench-webhook-secret-${randomBytes(16).toString('hex')}`;
const settings = {
  keySecret: SECRET,
  allowInsecureUrls: true,
  allowPrivateUrls: true,
  timeoutMs: 5000,
};

const line = (text: string) => process.stdout.write(`${text}\n`);
const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/** A lean receiver: reads the body, answers 204, notes when each event id arrived. */
async function startReceiver(): Promise<{
  server: Server;
  url: string;
  arrivals: Map<string, number>;
}> {
  const arrivals = new Map<string, number>();
  const server = createServer((req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      const id = req.headers['x-svc-event-id'];
      if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, arrivals };
}

const eventOf = (wallet: string, index: number): OutboxEventInput => {
  const data: PositionUpdatedData = {
    wallet,
    chain: 'solana',
    cause: 'settled',
    planId: `plan_${randomBytes(16).toString('hex')}`,
    legIndex: index % 4,
    txId: fakeBase58(88),
    harvestId: null,
  };
  return { type: 'position.updated', wallet, payload: data };
};

async function subscribe(db: Books, url: string, count: number) {
  const sender = createWebhookSender(settings);
  for (let index = 0; index < count; index += 1) {
    await createWebhook({
      db: db,
      cipher: sender.cipher,
      urlPolicy: sender.urlPolicy,
      owner: { keyId: `bench-owner-${index}`, wallets: ['*'] },
      input: { url: `${url}/hooks/${index}`, eventTypes: ['position.updated'] },
      now: new Date(),
    });
  }
  return sender;
}

/** Plain keep-alive POSTs of `body`, `streams` at a time, one after another in each. */
async function plainPosts(url: string, body: string, total: number, streams: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: streams });
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${url}/plain`, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  const seconds = await pool(
    Array.from({ length: total }, () => post),
    streams,
  );
  agent.destroy();
  return total / seconds;
}

async function deliveriesPerSecond(url: string): Promise<void> {
  const receiver = await startReceiver();
  try {
    await withDatabase(async (databaseUrl) => {
      const db = await createDatabase({ databaseUrl, poolSize: 8 });
      try {
        const sender = await subscribe(db, receiver.url, SUBSCRIPTIONS);
        const wallet = fakeBase58();
        for (let start = 0; start < EVENTS; start += 250) {
          const batch = Array.from({ length: Math.min(250, EVENTS - start) }, (_, index) =>
            eventOf(wallet, start + index),
          );
          await db.transaction((tx) => insertOutboxEvents(tx, batch, new Date()));
        }
        let relayed = 0;
        const relayStarted = performance.now();
        for (;;) {
          const round = await relayOutbox(db, { limit: 500 });
          relayed += round.deliveryIds.length;
          if (round.events < 500) break;
        }
        const relaySeconds = (performance.now() - relayStarted) / 1000;
        let delivered = 0;
        const started = performance.now();
        for (;;) {
          const round = await deliverDue(db, {
            ...sender,
            limit: 500,
            perSubscription: 100,
          });
          delivered += round.delivered;
          if (round.attempts.length === 0) break;
        }
        const seconds = (performance.now() - started) / 1000;
        if (delivered !== relayed) {
          throw new Error(`delivered ${delivered} of ${relayed} deliveries`);
        }
        const body = JSON.stringify({ id: 'evt', data: eventOf(wallet, 0).payload });
        const plain = await plainPosts(url, body, delivered, SUBSCRIPTIONS);
        const rate = delivered / seconds;
        line(
          `keeper: relay ${relayed} deliveries in ${relaySeconds.toFixed(2)} s ` +
            `(${(relayed / relaySeconds).toFixed(0)}/s)`,
        );
        line(
          `keeper: webhook deliveries/s ${rate.toFixed(0)} (${SUBSCRIPTIONS} subscriptions, ` +
            `signed, leased, every attempt recorded; target >= 1000) vs plain keep-alive POSTs ` +
            `${plain.toFixed(0)}/s → ratio ${(rate / plain).toFixed(3)}`,
        );
      } finally {
        await db.close();
      }
    });
  } finally {
    receiver.server.close();
  }
}

async function commitToDelivery(): Promise<void> {
  const receiver = await startReceiver();
  try {
    await withDatabase(async (databaseUrl) => {
      const db = await createDatabase({ databaseUrl, poolSize: 8 });
      const config = parseKeeperEnv({
        DATABASE_URL: databaseUrl,
        REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
        SVC_KEEPER_PREFIX: `bench:${randomBytes(4).toString('hex')}`,
        SVC_WEBHOOK_KEY_SECRET: SECRET,
        SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SVC_KEEPER_HEALTH_PORT: '0',
        SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
        SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
        SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: POLL_MS,
        SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: POLL_MS,
      });
      const keeper = await startKeeper({
        db,
        config,
        logger: pino({ level: 'silent' }),
      });
      try {
        await subscribe(db, receiver.url, 1);
        const wallet = fakeBase58();
        const committed = new Map<string, number>();
        for (let index = 0; index < LATENCY_EVENTS; index += 1) {
          const [id] = await db.transaction((tx) =>
            insertOutboxEvents(tx, [eventOf(wallet, index)], new Date()),
          );
          if (id) committed.set(id, performance.now());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const deadline = Date.now() + 30_000;
        while (receiver.arrivals.size < committed.size && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const latencies = [...committed]
          .map(([id, at]) => (receiver.arrivals.get(id) ?? NaN) - at)
          .filter(Number.isFinite)
          .sort((a, b) => a - b);
        if (latencies.length !== committed.size) {
          throw new Error(`only ${latencies.length} of ${committed.size} events arrived`);
        }
        line(
          `keeper: commit-to-delivery p50 ${percentile(latencies, 50).toFixed(0)} ms, ` +
            `p99 ${percentile(latencies, 99).toFixed(0)} ms (${latencies.length} events, ` +
            `relay and delivery polled every ${POLL_MS} ms, woken by NOTIFY at commit)`,
        );
      } finally {
        await keeper.close();
        await db.close();
      }
    });
  } finally {
    receiver.server.close();
  }
}

async function harvestWalletsPerSecond(): Promise<void> {
  await withDatabase(async (databaseUrl) => {
    const db = await createDatabase({ databaseUrl, poolSize: 8 });
    try {
      const opportunities = await seedFakeStakeOpportunities(db);
      const chain = fakeChain();
      const wallets = Array.from({ length: HARVEST_WALLETS }, () => fakeBase58());
      await stakeWallets({
        db: db,
        chain,
        opportunities,
        wallets,
        amountMicros: 5_000_000n,
      });
      // Yield accrues to the venue's share price: every wallet's shares gain about 1 %.
      chain.accrue(FAKE_STAKE_VENUE, 50_000n * BigInt(wallets.length));
      const readSeconds = await pool(
        wallets.map((wallet) => () => readStakedPositions(db, wallet)),
        1,
      );
      let harvested = 0;
      let after: string | undefined;
      const started = performance.now();
      do {
        const page = await harvestBatch({
          db: db,
          adapters: chain.adapters,
          venues: fakeStakeVenues,
          pageSize: 100,
          ...(after ? { after } : {}),
          now: () => new Date(),
        });
        harvested += page.positions.harvested;
        after = page.nextCursor ?? undefined;
      } while (after);
      const seconds = (performance.now() - started) / 1000;
      if (harvested !== wallets.length) throw new Error(`harvested ${harvested} positions`);
      const rate = wallets.length / seconds;
      const reads = wallets.length / readSeconds;
      line(
        `keeper: harvest batch ${rate.toFixed(0)} wallets/s (one position each, booked) vs ` +
          `reading each wallet's positions ${reads.toFixed(0)}/s → ratio ${(rate / reads).toFixed(3)} ` +
          '(target >= 0.5)',
      );
    } finally {
      await db.close();
    }
  });
}

export async function runKeeperBench(): Promise<void> {
  const plainReceiver = await startReceiver();
  try {
    await deliveriesPerSecond(plainReceiver.url);
  } finally {
    plainReceiver.server.close();
  }
  await commitToDelivery();
  await harvestWalletsPerSecond();
  await reconcileWalletsAtScale();
}
