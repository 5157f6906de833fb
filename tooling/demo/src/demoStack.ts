// The stack `pnpm demo` runs: the local beds (as `pnpm localnet` starts them), thirty days of APY
// history through the refresh path, a local webhook receiver, then the API and the keeper as
// `pnpm start` launches them. The browser test starts the same stack.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startLocalnet } from '@yieldrouter/chain-beds/localnet';
import type { Localnet } from '@yieldrouter/chain-beds/localnet';
import { createDatabase, verifyLedger } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { createClient } from '@yieldrouter/sdk';
import { launchServices, servicesFor } from '@yieldrouter/start/launch';
import { seedApyHistory } from './seedApyHistory';
import { freePort, waitForReady } from './serviceReady';
import { startWebhookReceiver } from './webhookReceiver';
import type { WebhookReceiver } from './webhookReceiver';

const ROOT = path.resolve(__dirname, '..', '..', '..');

export interface DemoStackOptions {
  /** PostgreSQL URL; unset: a fresh embedded PGlite directory under .data/. */
  readonly databaseUrl?: string | undefined;
  /** API port; 0 picks a free one. */
  readonly port?: number;
  /** Where the services' output goes ('inherit' for the terminal). */
  readonly stdio?: 'inherit' | 'ignore';
  readonly log?: (line: string) => void;
}

export interface DemoStack {
  readonly localnet: Localnet;
  readonly baseUrl: string;
  /** The demo owner's wallet: the Base bed's second anvil account (the agent signs with it). */
  readonly wallet: string;
  readonly ownerKey: string;
  /** An agent key scoped to `wallet` only (reads and plans; no owner-only routes). */
  readonly agentKey: string;
  readonly keeperKey: string;
  /** Where the demo subscribes its webhooks (see webhookReceiver.ts). */
  readonly webhookReceiver: WebhookReceiver;
  readonly database: string;
  /** Stops the API and keeper (they drain), then the beds; idempotent. */
  stop(): Promise<void>;
  /** Opens the database the services used (after stop, for PGlite) and verifies the ledger. */
  verify(): Promise<{ readonly ok: boolean; readonly lines: readonly string[] }>;
}

/** Queues the keeper's APY refresh (today's reading) and waits until the listing carries it. */
async function refreshToday(baseUrl: string, keeperKey: string): Promise<void> {
  // A keeper route: not in the SDK's client routes, so plain fetch.
  const queued = await fetch(`${baseUrl}/api/v1/svc/keeper/stats/refresh`, {
    method: 'POST',
    headers: { 'x-api-key': keeperKey, 'content-type': 'application/json' },
    body: '{}',
  });
  if (queued.status !== 202) throw new Error(`stats/refresh answered ${queued.status}`);
  const api = createClient({ baseUrl });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { opportunities } = await api.listOpportunities();
    const morpho = opportunities.find((one) => one.venueId === 'morpho');
    if (morpho && morpho.apy.d1Samples > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error("the keeper's APY refresh did not land within 30 s");
}

export async function startDemoStack(options: DemoStackOptions = {}): Promise<DemoStack> {
  const log = options.log ?? (() => undefined);
  const localnet = await startLocalnet();
  const webhookReceiver = await startWebhookReceiver().catch(async (error: unknown) => {
    await localnet.stop();
    throw error;
  });
  const dataDir = path.join(ROOT, '.data', `demo-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dbOptions = options.databaseUrl ? { databaseUrl: options.databaseUrl } : { dataDir };
  let launched: ReturnType<typeof launchServices> | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      launched?.stop('SIGTERM');
      await launched?.exited;
      await webhookReceiver.close();
      await localnet.stop();
    })();
    return stopped;
  };
  try {
    const wallet = localnet.base.anvil.accounts[1]?.address;
    if (!wallet) throw new Error('anvil has no second account');
    const ownerKey = `demo-owner-${randomBytes(12).toString('hex')}`;
    const agentKey = `demo-agent-${randomBytes(12).toString('hex')}`;
    const keeperKey = `demo-keeper-${randomBytes(12).toString('hex')}`;
    const port = options.port || (await freePort());
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...localnet.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
      SVC_DATA_DIR: dataDir,
      SVC_KEEPER_HEALTH_PORT: '0',
      SVC_KEEPER_PREFIX: `svc:demo:${process.pid}`,
      SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '1000',
      // The receiver is on 127.0.0.1 over http: a development-only allowance (production
      // refuses this setting and every private or http: target).
      SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      SVC_API_KEYS: JSON.stringify([
        { key: ownerKey, role: 'owner', wallets: ['*'] },
        { key: agentKey, role: 'agent', wallets: [wallet] },
        { key: keeperKey, role: 'keeper', wallets: ['*'] },
      ]),
    };
    if (options.databaseUrl) env['DATABASE_URL'] = options.databaseUrl;
    else delete env['DATABASE_URL'];

    mkdirSync(path.dirname(dataDir), { recursive: true });
    log(`seeding 30 days of APY history from the yields bed (${localnet.yields.url})`);
    const db: Books = await createDatabase({ ...dbOptions, migrate: true });
    try {
      const samples = await seedApyHistory(db, localnet, env);
      log(`  ${samples} APY samples stored by refreshApy`);
    } finally {
      await db.close();
    }

    launched = launchServices(servicesFor(env), env, options.stdio ?? 'inherit');
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForReady(baseUrl, launched.exited);
    await refreshToday(baseUrl, keeperKey);
    log("  and today's reading through the keeper (POST /api/v1/svc/keeper/stats/refresh)");
    return {
      localnet,
      baseUrl,
      wallet,
      ownerKey,
      agentKey,
      keeperKey,
      webhookReceiver,
      database: options.databaseUrl ? 'PostgreSQL' : `PGlite (${path.relative(ROOT, dataDir)})`,
      stop,
      verify: async () => {
        const verifyDb = await createDatabase({ ...dbOptions, migrate: false });
        try {
          const report = await verifyLedger(verifyDb);
          return {
            ok: report.ok,
            lines: [
              `ledger: ${report.entries} entries, ${report.postings} postings, ${report.accounts} accounts — ${report.ok ? 'clean' : `${report.problems.length} problems`}`,
              ...report.problems.map((problem) => `  ${problem.check}: ${problem.detail}`),
            ],
          };
        } finally {
          await verifyDb.close();
          if (!options.databaseUrl) rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
