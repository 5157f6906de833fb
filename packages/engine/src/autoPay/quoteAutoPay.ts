import type { Books } from '@yieldrouter/ledger';
import type { AutoPayPlanDocument } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { ledgerWallet } from '../wallet/walletAddress';
import { poolClaimReader } from './readPoolClaim';
import { computeAutoPayRun, splitDocument } from './computeAutoPayRun';
import type { AutoPayTarget } from './computeAutoPayRun';

/**
 * POST /svc/auto-pay/plan (public, prepare only): what a run of the wallet's auto-pay would pay
 * now — the position, the split per payee, the remainder — or the blocker that stops it. Nothing
 * is stored or reserved: only the owner's run prepares legs and commits the yield.
 */
export async function quoteAutoPay(
  db: Books,
  adapters: ChainAdapters,
  venues: VenueConfig,
  request: { readonly wallet: string } & AutoPayTarget,
  now: Date,
): Promise<AutoPayPlanDocument> {
  const wallet = ledgerWallet(adapters, request.wallet);
  const run = await computeAutoPayRun(db, wallet, request, now, {
    claimOf: poolClaimReader(db, adapters, venues, wallet),
  });
  return {
    schemaVersion: 'svc-auto-pay-plan.v1',
    wallet,
    status: run.status,
    blockers: run.status === 'blocked' ? [run.blocker] : [],
    split: run.status === 'ready' ? splitDocument(run) : null,
    ownerMustSign: true,
    stored: false,
  };
}
