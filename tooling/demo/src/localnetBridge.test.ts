import { randomBytes } from 'node:crypto';
import { startLocalnet } from '@yieldrouter/chain-beds/localnet';
import type { Localnet } from '@yieldrouter/chain-beds/localnet';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import { verifyLedger } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { launchServices, servicesFor } from '@yieldrouter/start/launch';
import type { LaunchedServices } from '@yieldrouter/start/launch';
import { runBridgeAgent } from './bridgeAgent';
import { freePort, waitForReady } from './serviceReady';
import { startWebhookReceiver } from './webhookReceiver';
import type { WebhookReceiver } from './webhookReceiver';

// Issue 18: "`pnpm localnet` can run a Base→Arbitrum bridge end to end". The beds as
// `pnpm localnet` starts them, the API and the keeper as `pnpm start` runs them with
// `.data/localnet.env` (its settings only, keeper cadences at their defaults: the bridge watch
// every 10 s), and `pnpm localnet:bridge`'s walk-through over HTTP: plan, the owner signs the
// burn on Base, settle, the Iris fake attests, the owner signs the mint on Arbitrum, the
// keeper's bridge watch credits it, the signed `bridge.delivered` webhook arrives; the books go
// in_flight on Base, then liquid on Arbitrum, credited once.

jest.setTimeout(120_000);

const AMOUNT = 25_000_000n; // 25 USDC; the localnet bridge fee is 10 bps

let localnet: Localnet;
let database: TestDatabase;
let receiver: WebhookReceiver;
let services: LaunchedServices | undefined;
let baseUrl: string;

beforeAll(async () => {
  [localnet, database, receiver] = await Promise.all([
    startLocalnet(),
    createTestDatabase(),
    startWebhookReceiver(),
  ]);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...localnet.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SVC_KEEPER_HEALTH_PORT: '0',
    SVC_KEEPER_PREFIX: `svc:localnet-bridge:${randomBytes(4).toString('hex')}`,
  };
  services = launchServices(servicesFor(env), env, 'ignore');
  baseUrl = `http://127.0.0.1:${port}`;
  await waitForReady(baseUrl, services.exited);
});

afterAll(async () => {
  services?.stop('SIGTERM');
  await services?.exited;
  await Promise.all([receiver?.close(), localnet?.stop()]);
  await database?.drop();
});

it('pnpm localnet runs a Base → Arbitrum bridge end to end: credited once by the keeper', async () => {
  const started = Date.now();
  const owner = anvilAccount(1);
  expect(owner.address).toBe(localnet.wallets.evm);
  const result = await runBridgeAgent({
    baseUrl,
    ownerKey: localnet.ownerKey,
    privateKey: owner.privateKey,
    rpcUrls: {
      base: localnet.env['SVC_BASE_RPC_URL'] ?? '',
      arbitrum: localnet.env['SVC_ARBITRUM_RPC_URL'] ?? '',
    },
    amountMicros: AMOUNT,
    webhookReceiver: receiver,
    timeoutMs: 25_000,
  });

  // The burn moved what it burned into in_flight on Base; the keeper's credit moved it to
  // liquid on Arbitrum (a standard transfer: the rail keeps nothing).
  expect(result.burnedMicros).toBe('24975000');
  expect(result.afterBurn).toEqual({ baseInFlightMicros: '24975000', arbitrumLiquidMicros: '0' });
  expect(result.deliveredMicros).toBe('24975000');
  expect(result.afterDelivery).toEqual({
    baseInFlightMicros: '0',
    arbitrumLiquidMicros: '24975000',
  });
  expect(result.webhook).toEqual({ eventId: expect.any(String), verified: true });
  expect(await localnet.cctp.usdcOf('arbitrum', owner.address)).toBe(1_000_000_000n + 24_975_000n);

  // Credited once: one delivery entry, one bridge.delivered, and the books balance.
  const db = database.db;
  expect(
    await db.journalEntry.count({ where: { planId: result.planId, kind: 'bridge_delivery' } }),
  ).toBe(1);
  const delivered = await db.outboxEvent.count({
    where: { wallet: result.wallet, type: 'bridge.delivered' },
  });
  expect(delivered).toBe(1);
  const transfer = await db.$queryRaw<{ mint_tx_id: string }[]>`
    SELECT mint_tx_id FROM bridge_transfers WHERE plan_id = ${result.planId}`;
  expect(transfer).toEqual([{ mint_tx_id: result.mintTx.toLowerCase() }]);
  expect((await verifyLedger(db)).ok).toBe(true);
  // CI time: the walk-through (plan → webhook) stays well inside a minute.
  expect(Date.now() - started).toBeLessThan(60_000);
});
