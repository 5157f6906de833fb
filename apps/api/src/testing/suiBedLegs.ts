import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { reconcileBooks } from '@yieldrouter/engine';
import { watchSettlements } from '@yieldrouter/jobs';
import { testJobDeps } from '@yieldrouter/jobs/testing';
import { markLegSubmitted, verifyLedger } from '@yieldrouter/ledger';
import { HarvestResult, PlanDocument, StoredPlanDocument } from '@yieldrouter/schemas';
import type { SuiSwapBedApp } from './startSuiSwapBedApp';
import { SUI_TEST_USDC } from './startSuiSwapBedApp';
import { testKeys } from './startTestApp';

/** SVC_API_KEYS for a bed app: the test owner and keeper keys, for every wallet. */
export const OWNER_AND_KEEPER_KEYS = JSON.stringify([
  { key: testKeys.owner, role: 'owner', wallets: ['*'] },
  { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
]);

/**
 * The owner's wallet resolves a prepared Sui leg against the bed (coins, shared versions), sets
 * gas, signs as `signer` (the owner, unless a test signs as someone else) and executes it.
 */
export async function executeSuiLeg(
  bed: SuiSwapBedApp,
  document: PlanDocument,
  signer: Ed25519Keypair,
  legIndex = 0,
): Promise<{ readonly bytes: Uint8Array; readonly digest: string }> {
  const leg = document.legs?.[legIndex];
  if (leg?.encoding !== 'sui-transaction-json') throw new Error(JSON.stringify(document));
  const tx = Transaction.from(leg.transaction as string);
  tx.setSender(signer.toSuiAddress());
  tx.setGasPrice(bed.sui.referenceGasPrice);
  tx.setGasBudget(50_000_000n);
  const bytes = await tx.build({ client: bed.client });
  const { signature } = await signer.signTransaction(bytes);
  const sent = await bed.client.executeTransactionBlock({ transactionBlock: bytes, signature });
  return { bytes, digest: sent.digest };
}

/** The leg is marked submitted with `digest`, the keeper's watch runs; the stored plan after. */
export async function settleSuiLeg(
  bed: SuiSwapBedApp,
  planId: string,
  digest: string,
  legIndex = 0,
): Promise<StoredPlanDocument> {
  const { t, adapters } = bed;
  await markLegSubmitted(t.db, { planId, legIndex, txId: digest, now: new Date() });
  await watchSettlements(
    testJobDeps(
      { url: '', db: t.db, drop: async () => undefined },
      { adapters, venues: t.config.venues },
    ),
  );
  return StoredPlanDocument.parse(
    (await request(t.app).get(`/api/v1/svc/plans/${planId}`).expect(200)).body,
  );
}

/** `executeSuiLeg` by the owner, then `settleSuiLeg`. */
export async function signAndSettleSuiLeg(
  bed: SuiSwapBedApp,
  document: PlanDocument,
  owner: Ed25519Keypair,
) {
  const { bytes, digest } = await executeSuiLeg(bed, document, owner);
  return { bytes, stored: await settleSuiLeg(bed, document.planId ?? '', digest) };
}

/** A new owner wallet on the bed holding 5 SUI for gas and `usdcMicros` of the bed's USDC. */
export function fundedSuiOwner(
  bed: SuiSwapBedApp,
  usdcMicros: bigint,
): { readonly wallet: Ed25519Keypair; readonly owner: string } {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  bed.sui.setBalance(owner, '0x2::sui::SUI', 5_000_000_000n);
  bed.sui.setBalance(owner, SUI_TEST_USDC, usdcMicros);
  return { wallet, owner };
}

/** What `owner` holds of the bed's USDC, read from the chain. */
export async function suiUsdcOf(bed: SuiSwapBedApp, owner: string): Promise<bigint> {
  return BigInt((await bed.client.getBalance({ owner, coinType: SUI_TEST_USDC })).totalBalance);
}

/** The ledger verifies; reconciliation reads every chain and finds no drift of a micro or more. */
export async function expectBooksClean(bed: SuiSwapBedApp): Promise<void> {
  const { t, adapters } = bed;
  expect((await verifyLedger(t.db)).problems).toEqual([]);
  const report = await reconcileBooks({
    db: t.db,
    adapters,
    venues: t.config.venues,
    thresholdMicros: 1n,
    trigger: 'manual',
    now: () => new Date(),
  });
  expect(report).toMatchObject({ unavailable: 0, aboveThreshold: 0 });
}

/** POST /wallets/{owner}/harvest (empty body), answered 200. */
export async function harvestWallet(bed: SuiSwapBedApp, owner: string): Promise<HarvestResult> {
  return HarvestResult.parse(
    (await request(bed.t.app).post(`/api/v1/wallets/${owner}/harvest`).send({}).expect(200)).body,
  );
}

/** POST /svc/strategies/{kind}/plan for `owner` in `venueId`, answered 200. */
export async function strategyPlan(
  bed: SuiSwapBedApp,
  kind: 'deposit' | 'withdraw',
  venueId: string,
  owner: string,
  amountMicros: bigint | string,
): Promise<PlanDocument> {
  const res = await request(bed.t.app)
    .post(`/api/v1/svc/strategies/${kind}/plan`)
    .send({ strategyId: venueId, owner, amountMicros: String(amountMicros) })
    .expect(200);
  return PlanDocument.parse(res.body);
}
