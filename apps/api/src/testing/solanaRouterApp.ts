import request from 'supertest';
import { VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import type { Keypair } from '@solana/web3.js';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds/solana';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { StoredPlanDocument } from '@yieldrouter/schemas';
import type { PlanDocument } from '@yieldrouter/schemas';
import { solanaBedSettings } from './solanaBedSettings';
import { settlementWatchKeeperSettings, startInApiKeeper } from './startInApiKeeper';
import { startTestApp, testKeys } from './startTestApp';
import type { TestApp } from './startTestApp';

/**
 * The API as `pnpm localnet` runs it on Solana: a bed with our router program and its test venue
 * (registered as `kamino`) deployed, execution and broadcast on, and the keeper's settlement
 * watch in the app's process.
 */
export interface SolanaRouterApp {
  readonly solana: SolanaBed;
  readonly router: SolanaRouterDeployment;
  readonly t: TestApp;
  close(): Promise<void>;
}

export async function startSolanaRouterApp(): Promise<SolanaRouterApp> {
  const solana = await startSolanaBed();
  let t: TestApp | undefined;
  let keeper: RunningKeeper | undefined;
  const close = async () => {
    await keeper?.close();
    await t?.close();
    await solana.stop();
  };
  try {
    const router = deployYieldRouter(solana);
    t = await startTestApp({
      ...solanaBedSettings(solana, router),
      SVC_SOLANA_NETWORK: 'localnet',
      SVC_SOLANA_UPGRADE_AUTHORITY: router.admin,
      SVC_VENUE_IDS: JSON.stringify({ kamino: router.venue }),
      SVC_SOLANA_EXECUTION_ENABLED: 'true',
      SVC_SOLANA_BROADCAST_ENABLED: 'true',
      SVC_API_KEYS: JSON.stringify([
        { key: testKeys.owner, role: 'owner', wallets: ['*'] },
        { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
      ]),
      ...settlementWatchKeeperSettings,
      SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '0',
      SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '0',
    });
    keeper = await startInApiKeeper(t);
    return { solana, router, t, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The owner's wallet signs the plan's only leg with its bed key; the API broadcasts it. */
export async function signAndExecuteLeg(
  t: TestApp,
  plan: PlanDocument,
  owner: Keypair,
): Promise<{ planId: string; txId: string; transaction: VersionedTransaction }> {
  const leg = plan.legs?.[0];
  if (!plan.planId || !leg || plan.legs?.length !== 1) throw new Error(JSON.stringify(plan));
  const transaction = VersionedTransaction.deserialize(
    Buffer.from(String(leg.transaction), 'base64'),
  );
  transaction.sign([owner]);
  const executed = await request(t.app)
    .post('/api/v1/svc/strategies/deposit/execute')
    .send({
      planId: plan.planId,
      signedTransaction: Buffer.from(transaction.serialize()).toString('base64'),
    })
    .expect(200);
  return { planId: plan.planId, txId: String(executed.body.txId), transaction };
}

/** Waits for the keeper's settlement watch to settle the plan's leg. */
export async function settledPlan(t: TestApp, planId: string): Promise<StoredPlanDocument> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const stored = StoredPlanDocument.parse(
      (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
    );
    if (stored.legs[0]?.status !== 'submitted') return stored;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`plan ${planId} was not settled`);
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
