// Test support (jest hooks): the API and an in-process keeper on the Solana bed, our router
// program with two test venues registered as kamino and marginfi, and the owner's side of a
// plan (sign, execute through the API, wait for the keeper's settlement watch).
import request from 'supertest';
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { addTestVenue, deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import type {
  SolanaBed,
  SolanaRouterDeployment,
  SolanaTestVenue,
} from '@yieldrouter/chain-beds/solana';
import type { RunningKeeper } from '@yieldrouter/jobs';
import { PlanDocument, PositionDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './startTestApp';
import { solanaRouterSettings } from './solanaBedSettings';
import { settlementWatchKeeperSettings, startInApiKeeper } from './startInApiKeeper';
import { startTestApp, testKeys } from './startTestApp';

export interface TwoVenueSolanaBed {
  readonly t: () => TestApp;
  readonly solana: () => SolanaBed;
  /** The second test venue (marginfi). */
  readonly second: () => SolanaTestVenue;
  readonly position: (wallet: string) => Promise<PositionDocument>;
  readonly stakedIn: (wallet: string, venueId: string) => Promise<string>;
  /** The owner signs leg `index` of the plan; the API broadcasts it (execute). */
  readonly signAndExecute: (plan: PlanDocument, index: number, owner: Keypair) => Promise<string>;
  /** Waits for the keeper's settlement watch to make leg `index` final. */
  readonly settled: (planId: string, index: number) => Promise<StoredPlanDocument>;
  /** An owner with `micros` staked in kamino, settled from its receipt. */
  readonly stakedOwner: (micros: bigint) => Promise<Keypair>;
}

/** The bed before all (`env` on top of its settings), everything stopped after all. */
export function useTwoVenueSolanaBed(env: Record<string, string> = {}): TwoVenueSolanaBed {
  let solana: SolanaBed | undefined;
  let router: SolanaRouterDeployment;
  let second: SolanaTestVenue | undefined;
  let t: TestApp | undefined;
  let keeper: RunningKeeper | undefined;
  beforeAll(async () => {
    solana = await startSolanaBed();
    router = deployYieldRouter(solana);
    second = addTestVenue(solana, router);
    t = await startTestApp({
      ...solanaRouterSettings(solana, router),
      SVC_VENUE_IDS: JSON.stringify({ kamino: router.venue, marginfi: second.venue }),
      SVC_API_KEYS: JSON.stringify([
        { key: testKeys.owner, role: 'owner', wallets: ['*'] },
        { key: testKeys.agent, role: 'agent', wallets: ['*'] },
        { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
      ]),
      ...settlementWatchKeeperSettings,
      SVC_KEEPER_OUTBOX_RELAY_EVERY_MS: '0',
      SVC_KEEPER_WEBHOOK_DELIVERY_EVERY_MS: '0',
      ...env,
    });
    keeper = await startInApiKeeper(t);
  });
  afterAll(async () => {
    await keeper?.close();
    await t?.close();
    await solana?.stop();
  });
  const app = () => {
    if (!t) throw new Error('the bed starts in beforeAll');
    return t;
  };
  const position = async (wallet: string) =>
    PositionDocument.parse(
      (
        await request(app().app)
          .get(`/api/v1/wallets/${wallet}/position`)
          .set('X-API-Key', testKeys.owner)
          .expect(200)
      ).body,
    );
  const signAndExecute = async (plan: PlanDocument, index: number, owner: Keypair) => {
    const leg = plan.legs?.[index];
    if (!plan.planId || !leg) throw new Error(JSON.stringify(plan));
    const transaction = VersionedTransaction.deserialize(
      Buffer.from(String(leg.transaction), 'base64'),
    );
    transaction.sign([owner]);
    const executed = await request(app().app)
      .post('/api/v1/svc/strategies/deposit/execute')
      .send({
        planId: plan.planId,
        legIndex: index,
        signedTransaction: Buffer.from(transaction.serialize()).toString('base64'),
      })
      .expect(200);
    return String(executed.body.txId);
  };
  const settled = async (planId: string, index: number) => {
    for (let attempt = 0; attempt < 150; attempt += 1) {
      const stored = StoredPlanDocument.parse(
        (await request(app().app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
      );
      const status = stored.legs[index]?.status;
      if (status === 'confirmed' || status === 'failed') return stored;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`leg ${index} of ${planId} was not settled`);
  };
  return {
    t: app,
    solana: () => {
      if (!solana) throw new Error('the bed starts in beforeAll');
      return solana;
    },
    second: () => {
      if (!second) throw new Error('the bed starts in beforeAll');
      return second;
    },
    position,
    stakedIn: async (wallet, venueId) =>
      (await position(wallet)).byChain.solana.venues.find((venue) => venue.venueId === venueId)
        ?.stakedMicros ?? '0',
    signAndExecute,
    settled,
    stakedOwner: async (micros) => {
      const owner = solana?.createFundedKeypair();
      if (!owner) throw new Error('the bed starts in beforeAll');
      solana?.mintUsdc(owner.publicKey, micros);
      const plan = PlanDocument.parse(
        (
          await request(app().app)
            .post('/api/v1/svc/strategies/deposit/plan')
            .send({
              strategyId: 'kamino',
              amountMicros: String(micros),
              owner: owner.publicKey.toBase58(),
            })
            .expect(200)
        ).body,
      );
      await signAndExecute(plan, 0, owner);
      await settled(plan.planId ?? '', 0);
      return owner;
    },
  };
}
