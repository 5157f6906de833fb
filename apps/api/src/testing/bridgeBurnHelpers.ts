import request from 'supertest';
import type { Express } from 'express';
import type { Hex } from 'viem';
import type { BridgePlanDocument } from '@yieldrouter/schemas';
import type { CctpBed } from '@yieldrouter/chain-beds/bridges';

/**
 * The owner signs every leg of a prepared Base bridge plan (with `ownerKey` on the CCTP bed);
 * the keeper (`keeperKey`) settles the fee transfer and the burn from their receipts.
 */
export async function burnAndSettle(
  app: Express,
  cctp: CctpBed,
  document: BridgePlanDocument,
  keys: { readonly owner: Hex; readonly keeper: string },
) {
  const settleLeg = (index: number, txId: Hex) =>
    request(app)
      .post(`/api/v1/svc/plans/${document.planId}/legs/${index}/settle`)
      .set('X-API-Key', keys.keeper)
      .send({ txId })
      .expect(200);
  let burnTx: Hex | undefined;
  let feeTx: Hex | undefined;
  const hashes: Record<number, Hex> = {};
  for (const leg of document.legs ?? []) {
    const tx = (leg as unknown as { transaction: { to: string; data: Hex } }).transaction;
    const hash = await cctp.send('base', tx, keys.owner);
    hashes[leg.index] = hash;
    if (leg.action === 'burn') burnTx = hash;
    if (leg.action === 'transfer') feeTx = hash;
  }
  const burn = document.legs?.find((leg) => leg.action === 'burn');
  const fee = document.legs?.find((leg) => leg.action === 'transfer');
  if (!burnTx || !burn) throw new Error('no burn leg');
  if (fee && feeTx) await settleLeg(fee.index, feeTx);
  const settled = await settleLeg(burn.index, burnTx);
  return { burnTx, hashes, settled: settled.body as { status: string } };
}
