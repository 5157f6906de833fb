import request from 'supertest';
import type { Address, Hex } from 'viem';
import { PublicActivityDocument, PublicPortfolioDocument } from '@yieldrouter/schemas';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';
import type { TestApp } from './startTestApp';
import { testKeys } from './startTestApp';

/**
 * The app's settings for a cross-chain deposit on the CCTP bed: the bed's (both chains, the
 * rail), fluid (the bed's vault) on Arbitrum, the owner's key and the keeper's.
 */
export const crossChainDepositSettings = (
  bed: CctpBed,
  owner: { readonly address: Address; readonly key: string },
): Record<string, string> => ({
  ...bed.settings,
  SVC_CCTP_TIMEOUT_MS: '1000',
  SVC_VENUE_IDS: JSON.stringify({ fluid: { vault: bed.arbitrum.fixtures.vault } }),
  SVC_API_KEYS: JSON.stringify([
    { key: owner.key, role: 'owner', wallets: [owner.address] },
    { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
  ]),
});

/**
 * What the cross-chain deposit flow tests do on the CCTP bed, for one owner: read a books
 * balance, sign and send a leg on either side, settle a leg and report a delivery as the keeper,
 * and read a plan's activity rows and the owner's portfolio. `app` and `bed` are read when a
 * helper runs (after the suite's beforeAll).
 */
export function crossChainDepositHelpers(
  app: () => TestApp,
  bed: () => CctpBed,
  owner: { readonly address: Address; readonly privateKey: Hex },
) {
  return {
    /** The owner's balance in one bucket on one chain (USDC unless the bucket names an asset). */
    balance: async (chain: string, bucket: string) =>
      (
        await app().db.ledgerAccount.findFirst({
          where: { wallet: owner.address, chain, bucket },
        })
      )?.balanceMicros ?? 0n,
    /** Signs a leg's `{to, data}` with the owner's key and sends it; its hash, mined. */
    send: (side: 'base' | 'arbitrum', leg: unknown) =>
      bed().send(
        side,
        (leg as { transaction: { to: string; data: Hex } }).transaction,
        owner.privateKey,
      ),
    settle: (planId: string | undefined, index: number, txId: Hex) =>
      request(app().app)
        .post(`/api/v1/svc/plans/${planId}/legs/${index}/settle`)
        .set('X-API-Key', testKeys.keeper)
        .send({ txId }),
    deliver: (body: Record<string, unknown>) =>
      request(app().app)
        .post('/api/v1/svc/bridge/delivery')
        .set('X-API-Key', testKeys.keeper)
        .send(body),
    /** The plan's activity rows: [legIndex, kind, chain, status]. */
    activityOf: async (planId: string | undefined) =>
      PublicActivityDocument.parse(
        (await request(app().app).get(`/api/v1/svc/activity?wallet=${owner.address}`).expect(200))
          .body,
      )
        .activity.filter((row) => row.planId === planId)
        .map((row) => [row.legIndex, row.kind, row.chain, row.status]),
    /** The owner's public portfolio positions (the cost basis is `depositedMicros`). */
    positions: async () =>
      PublicPortfolioDocument.parse(
        (await request(app().app).get('/api/v1/svc/portfolio').query({ wallet: owner.address }))
          .body,
      ).positions,
  };
}
