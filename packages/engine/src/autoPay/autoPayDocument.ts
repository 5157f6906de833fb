import { readAutoPayPools, readOpenAutoPayRuns } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { AutoPayDocument, Chain } from '@yieldrouter/schemas';
import { AUTO_PAY_MAX_PAYEES, formatMicros } from '@yieldrouter/schemas';
import { configDocument } from './autoPayConfig';
import { computeAutoPayRun, splitDocument } from './computeAutoPayRun';
import type { PoolClaimReader } from './readPoolClaim';
import { poolStanding } from './splitAutoPay';

/** The wallet's auto-pay document: config, each position's pool, and what a run pays now. */
export async function readAutoPayDocument(
  db: Books,
  wallet: string,
  now: Date,
  claimOf: PoolClaimReader,
): Promise<AutoPayDocument> {
  // One after the other: inside a transaction (PUT) the client runs one query at a time.
  const run = await computeAutoPayRun(db, wallet, {}, now, { claimOf });
  const pools = await readAutoPayPools(db, wallet);
  const positions = pools.map((pool) => {
    const standing = poolStanding(pool);
    return {
      chain: pool.chain as Chain,
      opportunityId: pool.opportunityId,
      venueId: pool.venueId,
      accruedMicros: formatMicros(pool.accruedCentimicros / 100n),
      committedMicros: formatMicros(pool.committedMicros),
      payableMicros: formatMicros(standing.payableMicros),
      stakedMicros: formatMicros(pool.stakedMicros),
      principalMicros: formatMicros(pool.principalMicros),
      principalHeadroomMicros: formatMicros(standing.headroomMicros),
    };
  });
  return {
    schemaVersion: 'svc-auto-pay.v1',
    wallet,
    maxPayees: AUTO_PAY_MAX_PAYEES,
    config: run.config && configDocument(run.config),
    payableMicros: formatMicros(
      pools.reduce((total, pool) => total + poolStanding(pool).payableMicros, 0n),
    ),
    positions,
    next: run.status === 'ready' ? splitDocument(run) : null,
    openRuns: (await readOpenAutoPayRuns(db, wallet)).map((open) => ({
      planId: open.planId,
      chain: open.chain as Chain,
      opportunityId: open.opportunityId,
      amountMicros: formatMicros(open.amountMicros),
      createdAt: open.createdAt.toISOString(),
    })),
  };
}
