import { randomBytes } from 'node:crypto';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import { createDatabase } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { createEmptyTestDatabase } from '@yieldrouter/ledger/testing';
import { HttpClient } from './httpClient';
import { startPrivateRedis } from './privateRedis';
import type { PrivateRedis } from './privateRedis';
import { spawnService } from './serviceProcess';
import type { ServiceName, ServiceProcess } from './serviceProcess';

/** A running API or keeper process of the stack, and a client of the port it serves. */
export interface Instance {
  readonly process: ServiceProcess;
  readonly port: number;
  readonly client: HttpClient;
}

export interface Stack {
  readonly databaseUrl: string;
  /** The stack's database, for the invariants (a connection of the suite's own). */
  readonly db: Books;
  readonly redis: PrivateRedis;
  /** Owner key of every wallet (`"*"`). */
  readonly ownerKey: string;
  readonly apis: Instance[];
  readonly keepers: Instance[];
  /** A client of API `index`'s current process. */
  api(index?: number): HttpClient;
  /** A load balancer's pick: the APIs in turn. */
  anyApi(): HttpClient;
  /** Starts (again) API `index` / keeper `index` with the stack's settings. */
  startApi(index: number, extraEnv?: Record<string, string>): Promise<Instance>;
  startKeeper(index: number, extraEnv?: Record<string, string>): Promise<Instance>;
  /** Everything the processes wrote lately, for a failure report. */
  logs(): string;
  close(): Promise<void>;
}

export interface StackOptions {
  readonly solana: SolanaBed;
  /** The router program deployed in `solana` (`deployYieldRouter`). */
  readonly router: SolanaRouterDeployment;
  readonly apis?: number;
  readonly keepers?: number;
  /** Settings on top of the stack's. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * What every process of a stack runs with: fast keeper cadences, the local Solana bed and the
 * router program deployed there.
 */
/**
 * The APIs' Idempotency-Key claim window (SVC_IDEMPOTENCY_LOCK_MS): a request that never finished
 * (its API was killed) may run again after it. Twice the stack's RPC timeout, so a live request
 * still holds its claim; not the default 30 s, which the crash scenario would sit out.
 */
export const CLAIM_WINDOW_MS = 10_000;

function stackEnv(
  databaseUrl: string,
  redisUrl: string,
  { solana, router }: Pick<StackOptions, 'solana' | 'router'>,
  ownerKey: string,
): Record<string, string> {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    SVC_API_KEY_SECRET: `faults-${randomBytes(24).toString('hex')}`,
    SVC_API_KEYS: JSON.stringify([{ key: ownerKey, role: 'owner', wallets: ['*'] }]),
    SVC_RATE_LIMIT_KEYED: '10000000',
    SVC_RATE_LIMIT_PUBLIC: '10000000',
    SVC_DRAIN_TIMEOUT_MS: '10000',
    SVC_IDEMPOTENCY_LOCK_MS: String(CLAIM_WINDOW_MS),
    SVC_KEEPER_PREFIX: 'svc:faults:keeper',
    SVC_KEEPER_HEALTH_HOST: '127.0.0.1',
    SVC_KEEPER_HEALTH_PORT: '0',
    SVC_KEEPER_HEARTBEAT_MS: '500',
    SVC_KEEPER_LOCK_MS: '3000',
    SVC_KEEPER_SETTLEMENT_WATCH_EVERY_MS: '500',
    SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '500',
    SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '500',
    SVC_KEEPER_APY_REFRESH_EVERY_MS: '0',
    SVC_KEEPER_HARVEST_BATCH_EVERY_MS: '0',
    SVC_KEEPER_IDEMPOTENCY_SWEEP_EVERY_MS: '0',
    SVC_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    SVC_WEBHOOK_TIMEOUT_MS: '2000',
    SVC_RPC_TIMEOUT_MS: '5000',
    SVC_SOLANA_EXECUTION_ENABLED: 'true',
    SVC_SOLANA_BROADCAST_ENABLED: 'true',
    SVC_SOLANA_RPC_URL: solana.rpcUrl,
    SVC_SOLANA_USDC_MINT: solana.usdcMint,
    SVC_SOLANA_PROGRAM_ID: router.programId,
    SVC_SOLANA_YIELD_ROUTER: router.yieldRouter,
    SVC_SOLANA_ADAPTER_REGISTRY: router.adapterRegistry,
  };
}

/**
 * A deployment of its own: an empty PostgreSQL database (the API applies the migrations), a
 * private redis-server, N API processes and M keeper processes on free ports, as `pnpm start`
 * runs them with DATABASE_URL.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const [database, redis] = await Promise.all([createEmptyTestDatabase(), startPrivateRedis()]);
  const ownerKey = `faults-owner-${randomBytes(12).toString('hex')}`;
  const env = { ...stackEnv(database.url, redis.url, options, ownerKey), ...options.env };
  const apis: Instance[] = [];
  const keepers: Instance[] = [];
  const retired: ServiceProcess[] = [];
  const start = async (
    name: ServiceName,
    list: Instance[],
    index: number,
    extraEnv: Record<string, string> = {},
  ) => {
    const previous = list[index];
    if (previous) {
      previous.client.close();
      retired.push(previous.process);
    }
    const child = spawnService(name, { ...env, ...extraEnv });
    const port = await child.ready;
    const instance = { process: child, port, client: new HttpClient(port) };
    list[index] = instance;
    return instance;
  };
  let db: Books | undefined;
  const stopAll = async () => {
    const all = [...apis.map((i) => i.process), ...keepers.map((i) => i.process), ...retired];
    for (const instance of [...apis, ...keepers]) instance.client.close();
    for (const child of all) child.kill('SIGKILL');
    await Promise.all(all.map((child) => child.exited));
  };
  try {
    // The first API applies the migrations; the others and the keepers find them applied.
    await start('api', apis, 0);
    const rest = [
      ...Array.from({ length: (options.apis ?? 1) - 1 }, (_, i) => start('api', apis, i + 1)),
      ...Array.from({ length: options.keepers ?? 1 }, (_, i) => start('keeper', keepers, i)),
    ];
    await Promise.all(rest);
    db = await createDatabase({ databaseUrl: database.url, migrate: false, poolSize: 4 });
  } catch (error) {
    await stopAll();
    await redis.stop();
    await database.drop();
    throw error;
  }
  const opened = db;
  const api = (index = 0) => {
    const instance = apis[index];
    if (!instance) throw new Error(`no API ${index}`);
    return instance.client;
  };
  let turn = 0;
  return {
    api,
    anyApi: () => {
      turn = (turn + 1) % apis.length;
      return api(turn);
    },
    databaseUrl: database.url,
    db: opened,
    redis,
    ownerKey,
    apis,
    keepers,
    startApi: (index, extraEnv) => start('api', apis, index, extraEnv),
    startKeeper: (index, extraEnv) => start('keeper', keepers, index, extraEnv),
    logs: () =>
      [...apis, ...keepers]
        .map(
          (instance) => `--- ${instance.process.name}\n${instance.process.output().slice(-4000)}`,
        )
        .join('\n'),
    close: async () => {
      await stopAll();
      await opened.close();
      await redis.stop();
      await database.drop();
    },
  };
}
