import { listAfterHarvestWallets } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import type { VenueConfig } from '../venues/venueConfig';
import { runAutoPay } from './runAutoPay';
import type { Treasuries } from '../plan/withdrawSkim';

export interface RunAutoPayAfterHarvestParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** Ledger wallets a harvest just booked yield for. */
  readonly wallets: readonly string[];
  readonly now: Date;
  /** Where the owner holds the receipts, each run's withdraw leg pays the skim there. */
  readonly treasuries?: Treasuries | undefined;
}

/** Refusals that only mean "nothing to pay now": the harvest goes on without a plan. */
const QUIET = new Set([
  'AUTO_PAY_OFF',
  'AUTO_PAY_NOTHING_PAYABLE',
  'AUTO_PAY_WOULD_TOUCH_PRINCIPAL',
]);

/**
 * The `after_harvest` trigger: for each wallet whose config asks for it, a run is prepared for
 * the owner to sign (GET /wallets/{address}/auto-pay lists it under `openRuns`). A harvest is
 * permissionless, so this only ever prepares: nothing moves until the owner signs. A run refused
 * for want of payable yield is no failure; any other error is returned with its wallet.
 */
export async function runAutoPayAfterHarvest(
  parameters: RunAutoPayAfterHarvestParameters,
): Promise<{ readonly planIds: string[]; readonly errors: { wallet: string; message: string }[] }> {
  const planIds: string[] = [];
  const errors: { wallet: string; message: string }[] = [];
  for (const wallet of await listAfterHarvestWallets(parameters.db, parameters.wallets)) {
    try {
      const plan = await runAutoPay({ ...parameters, address: wallet, target: {} });
      if (plan.planId) planIds.push(plan.planId);
    } catch (error) {
      if (error instanceof EngineError && QUIET.has(error.code)) continue;
      errors.push({
        wallet,
        message: `auto-pay after harvest: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return { planIds, errors };
}
