import request from 'supertest';
import { createCctpRail, watchBridgeDeliveries } from '@yieldrouter/engine';
import { chainAdapters } from './legsAfterSimulation';
import type { TestApp } from './startTestApp';
import { testKeys } from './startTestApp';

/**
 * The bridge flow tests' calls on the app `app()` returns (started in `beforeAll`): a plan under
 * the owner's key, a delivery and a leg's settle under the keeper's, a ledger balance, and a
 * pass of the keeper's bridge watch with the app's rail and chain adapters.
 */
export function bridgeCalls(app: () => TestApp, ownerKey: string) {
  return {
    plan: (body: Record<string, unknown>) =>
      request(app().app).post('/api/v1/svc/bridge/plan').set('X-API-Key', ownerKey).send(body),
    deliver: (body: Record<string, unknown>) =>
      request(app().app)
        .post('/api/v1/svc/bridge/delivery')
        .set('X-API-Key', testKeys.keeper)
        .send(body),
    settle: (planId: string | undefined, index: number, txId: string) =>
      request(app().app)
        .post(`/api/v1/svc/plans/${planId}/legs/${index}/settle`)
        .set('X-API-Key', testKeys.keeper)
        .send({ txId }),
    balance: async (wallet: string, chain: string, bucket: string) =>
      (await app().db.ledgerAccount.findFirst({ where: { wallet, chain, bucket } }))
        ?.balanceMicros ?? 0n,
    watch: () =>
      watchBridgeDeliveries({
        db: app().db,
        rail: createCctpRail({ bridges: app().config.bridges, chains: app().config.chains }),
        adapters: chainAdapters(app()),
        pageSize: 10,
        now: () => new Date(),
      }),
  };
}
