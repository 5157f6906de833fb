import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createWebhook, createWebhookSender } from '@yieldrouter/engine';
import { insertOutboxEvents } from '@yieldrouter/ledger';
import { JOB_NAMES } from './jobs/jobCatalog';
import type { JobName } from './jobs/jobCatalog';
import { startKeeper } from './startKeeper';
import type { RunningKeeper } from './startKeeper';
import { silentLogger, startKeeperTestBed, waitFor } from './testing/keeperTestBed';
import type { KeeperTestBed } from './testing/keeperTestBed';

// A committed outbox event reaches its webhook through LISTEN/NOTIFY (migration 0051), with the
// relay and delivery polls a day apart: nothing but the notification can have woken them.

const SECRET = `wake-test-webhook-secret-${randomBytes(16).toString('hex')}`;
const DAY_MS = '86400000';
const WALLET = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';

let bed: KeeperTestBed;
let server: Server;
let url: string;
const arrivals: string[] = [];
let keeper: RunningKeeper | undefined;

beforeAll(async () => {
  bed = await startKeeperTestBed();
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['x-svc-event-id'];
      if (typeof id === 'string') arrivals.push(id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await keeper?.close({ timeoutMs: 5000 });
  await new Promise((resolve) => server.close(resolve));
  await bed.close();
});

/** Every job off but the relay and delivery, which poll once a day. */
const cadences = Object.fromEntries(
  JOB_NAMES.map((name: JobName) => [
    `SVC_KEEPER_${name.toUpperCase().replaceAll('-', '_')}_EVERY_MS`,
    name === 'outbox-relay' || name === 'webhook-delivery' ? DAY_MS : '0',
  ]),
);

const event = (index: number) => ({
  type: 'position.updated' as const,
  wallet: WALLET,
  payload: {
    wallet: WALLET,
    chain: 'base',
    cause: 'settled',
    planId: `plan_${randomBytes(16).toString('hex')}`,
    legIndex: index,
    txId: `0x${randomBytes(32).toString('hex')}`,
    harvestId: null,
  },
});

it('delivers a committed event without waiting for the poll, and each event after it', async () => {
  const db = bed.database.db;
  const sender = createWebhookSender({
    keySecret: SECRET,
    allowInsecureUrls: true,
    allowPrivateUrls: true,
    timeoutMs: 2000,
  });
  await createWebhook({
    db,
    cipher: sender.cipher,
    urlPolicy: sender.urlPolicy,
    owner: { keyId: 'wake-owner', wallets: ['*'] },
    input: { url: `${url}/hooks`, eventTypes: ['position.updated'] },
    now: new Date(),
  });
  keeper = await startKeeper({
    db,
    config: bed.config({
      ...cadences,
      SVC_WEBHOOK_KEY_SECRET: SECRET,
      SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    }),
    logger: silentLogger,
  });
  // Whatever first runs the schedulers start with are over before anything is committed.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(arrivals).toEqual([]);

  for (let index = 0; index < 3; index += 1) {
    const started = Date.now();
    const [id] = await db.transaction((tx) => insertOutboxEvents(tx, [event(index)], new Date()));
    await waitFor(async () => (arrivals.includes(id as string) ? true : undefined), 20_000, id);
    expect(Date.now() - started).toBeLessThan(20_000); // the poll is a day away
  }
  expect(arrivals).toHaveLength(3);
});

it('delivers every event of concurrent commits, those that sent no notification too', async () => {
  const db = bed.database.db;
  const before = arrivals.length;
  // Eight transactions at once: while one that notified is in flight the others commit beside
  // it without notifying (0052); the keeper's trailing look after a run picks them up.
  const ids = (
    await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        db.transaction(async (tx) => {
          const inserted = await insertOutboxEvents(tx, [event(10 + index)], new Date());
          await new Promise((resolve) => setTimeout(resolve, 20));
          return inserted;
        }),
      ),
    )
  ).flat();
  await waitFor(
    async () => (ids.every((id) => arrivals.includes(id)) ? true : undefined),
    5000,
    'every concurrent event',
  );
  expect(arrivals.length - before).toBe(8);
});
