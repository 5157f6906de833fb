import request from 'supertest';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Keypair } from '@solana/web3.js';
import {
  deployJupiterLend,
  deployYieldRouter,
  startSolanaBed,
} from '@yieldrouter/chain-beds/solana';
import type {
  SolanaBed,
  SolanaJupiterLend,
  SolanaRouterDeployment,
} from '@yieldrouter/chain-beds/solana';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { PlanDocument, PositionDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import { solanaBedSettings } from './solanaBedSettings';
import { settlementWatchKeeperSettings, startInApiKeeper } from './startInApiKeeper';
import { startTestApp, testKeys } from './startTestApp';
import type { TestApp } from './startTestApp';

/**
 * The API as `pnpm localnet` runs it on Solana: a bed with our router program and the klend
 * stand-in (registered as `kamino`) deployed, execution and broadcast on, and the keeper's
 * settlement watch in the app's process. With `secondVenue`, the Jupiter Lend stand-in too,
 * registered as `jupiter-lend` (two real venues on one chain, for rebalance and the autopilot).
 */
export interface SolanaRouterApp {
  readonly solana: SolanaBed;
  readonly router: SolanaRouterDeployment;
  /** The Jupiter Lend market registered as `jupiter-lend`, with `secondVenue`. */
  readonly second: SolanaJupiterLend | undefined;
  readonly t: TestApp;
  close(): Promise<void>;
}

export async function startSolanaRouterApp(
  options: {
    readonly secondVenue?: boolean;
    /** Settings on top (a keeper job's cadence, …). */
    readonly env?: Readonly<Record<string, string>>;
    /**
     * More set up on the bed before the app starts (a pool, a quote fake, a venue registered
     * with the router): its settings go on top, and its `close` runs before the bed stops.
     */
    readonly onBed?: (
      solana: SolanaBed,
      router: SolanaRouterDeployment,
    ) => Promise<{
      readonly env: Readonly<Record<string, string>>;
      close(): Promise<void>;
    }>;
  } = {},
): Promise<SolanaRouterApp> {
  const solana = await startSolanaBed();
  let t: TestApp | undefined;
  let keeper: RunningKeeper | undefined;
  let extra: Awaited<ReturnType<NonNullable<typeof options.onBed>>> | undefined;
  const close = async () => {
    await keeper?.close();
    await t?.close();
    await extra?.close();
    await solana.stop();
  };
  try {
    const router = deployYieldRouter(solana);
    extra = await options.onBed?.(solana, router);
    const second = options.secondVenue ? deployJupiterLend(solana, { router }) : undefined;
    t = await startTestApp({
      ...solanaBedSettings(solana, router),
      SVC_SOLANA_NETWORK: 'localnet',
      SVC_SOLANA_UPGRADE_AUTHORITY: router.admin,
      SVC_VENUE_IDS: JSON.stringify({
        kamino: router.kamino.ids,
        ...(second ? { 'jupiter-lend': second.ids } : {}),
      }),
      SVC_SOLANA_EXECUTION_ENABLED: 'true',
      SVC_SOLANA_BROADCAST_ENABLED: 'true',
      SVC_API_KEYS: JSON.stringify([
        { key: testKeys.owner, role: 'owner', wallets: ['*'] },
        { key: testKeys.agent, role: 'agent', wallets: ['*'] },
        { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
      ]),
      ...settlementWatchKeeperSettings,
      SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '0',
      SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '0',
      ...options.env,
      ...extra?.env,
    });
    keeper = await startInApiKeeper(t);
    return { solana, router, second, t, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The owner's wallet signs a leg of the plan with its bed key (the only leg, or `legIndex` of a
 * plan of several); the API broadcasts it.
 */
export async function signAndExecuteLeg(
  t: TestApp,
  plan: PlanDocument,
  owner: Keypair,
  legIndex?: number,
): Promise<{ planId: string; txId: string; transaction: VersionedTransaction }> {
  const leg = plan.legs?.[legIndex ?? 0];
  if (!plan.planId || !leg || (legIndex === undefined && plan.legs?.length !== 1)) {
    throw new Error(JSON.stringify(plan));
  }
  const transaction = VersionedTransaction.deserialize(
    Buffer.from(String(leg.transaction), 'base64'),
  );
  transaction.sign([owner]);
  const executed = await request(t.app)
    .post('/api/v1/svc/strategies/deposit/execute')
    .send({
      planId: plan.planId,
      ...(legIndex === undefined ? {} : { legIndex }),
      signedTransaction: Buffer.from(transaction.serialize()).toString('base64'),
    })
    .expect(200);
  return { planId: plan.planId, txId: String(executed.body.txId), transaction };
}

/** Waits for the keeper's settlement watch to settle the plan's leg (the first, or `legIndex`). */
export async function settledPlan(
  t: TestApp,
  planId: string,
  legIndex = 0,
): Promise<StoredPlanDocument> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
    );
    if (stored.legs[legIndex]?.status !== 'submitted') return stored;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`plan ${planId} was not settled`);
}

/** A bed owner with `micros` staked in kamino (deposit plan, signed, settled from its receipt). */
export async function stakedKaminoOwner(app: SolanaRouterApp, micros: bigint): Promise<Keypair> {
  const owner = app.solana.createFundedKeypair();
  app.solana.mintUsdc(owner.publicKey, micros);
  const plan = PlanDocument.parse(
    (
      await request(app.t.app)
        .post('/api/v1/svc/strategies/deposit/plan')
        .send({
          strategyId: 'kamino',
          amountMicros: String(micros),
          owner: owner.publicKey.toBase58(),
        })
        .expect(200)
    ).body,
  );
  await signAndExecuteLeg(app.t, plan, owner);
  await settledPlan(app.t, plan.planId ?? '');
  return owner;
}

/** The wallet's position (owner key). */
export async function walletPosition(t: TestApp, wallet: string): Promise<PositionDocument> {
  return PositionDocument.parse(
    (
      await request(t.app)
        .get(`/api/v1/wallets/${wallet}/position`)
        .set('X-API-Key', testKeys.owner)
        .expect(200)
    ).body,
  );
}

/** What the wallet has staked in a Solana venue, as its position shows it. */
export async function stakedInVenue(t: TestApp, wallet: string, venueId: string): Promise<string> {
  const venues = (await walletPosition(t, wallet)).byChain.solana.venues;
  return venues.find((venue) => venue.venueId === venueId)?.stakedMicros ?? '0';
}

/** The owner signs a leg with its bed key and the bed executes it; its signature is the txId. */
export function signAndSendLeg(
  solana: SolanaBed,
  leg: { readonly transaction: unknown },
  owner: Keypair,
): string {
  const tx = VersionedTransaction.deserialize(Buffer.from(String(leg.transaction), 'base64'));
  tx.sign([owner]);
  const outcome = solana.send(tx);
  if ('err' in outcome && outcome.err) throw new Error(JSON.stringify(outcome));
  return bs58.encode(tx.signatures[0] as Uint8Array);
}
