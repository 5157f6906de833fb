import type { FeeSchedule } from '@yieldrouter/fees';
import { readTrackedPositions, recordHarvests } from '@yieldrouter/ledger';
import type { HarvestBooking, Books, TrackedPosition, WriteRecorder } from '@yieldrouter/ledger';
import type { Chain, HarvestPositionResult, HarvestResult } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { runAutoPayAfterHarvest } from '../autoPay/runAutoPayAfterHarvest';
import { measureAll, positionResult } from './measurePosition';
import type { Measured } from './measurePosition';
import { summarizeHarvest } from './summarizeHarvest';
import { ledgerWallet } from './walletAddress';
import { prepareYieldPlans } from './prepareYieldPlans';
import type { YieldPlanSources } from './prepareYieldPlans';
import type { Treasuries } from '../plan/withdrawSkim';

export interface HarvestParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The wallet as named in the path. */
  readonly address: string;
  /**
   * Asks for the on-chain claim (202, nothing booked): with `yieldPlans`, a withdraw plan per
   * position that realises its yield and pays the skim to the treasury (`prepareYieldPlans`).
   */
  readonly execute: boolean;
  /** What the plans of `execute: true` need; unset: the amounts only. */
  readonly yieldPlans?: YieldPlanSources | undefined;
  /** Whether the server may broadcast on a chain (it still never signs for the owner). */
  readonly broadcastEnabled: (chain: Chain) => boolean;
  readonly schedule?: FeeSchedule;
  /** Each chain's treasury: the after_harvest auto-pay run's withdraw leg pays the skim there. */
  readonly treasuries?: Treasuries | undefined;
  /** Only the positions on this chain. */
  readonly chain?: Chain;
  readonly now: Date;
  /**
   * Stores the answer with the bookings (Idempotency-Key): every position is then booked in the
   * one transaction that also records the result, so a retry after any crash gets this answer.
   */
  readonly recordWrite?: WriteRecorder<HarvestResult> | undefined;
}

/** What a harvest of several positions needs (a wallet's, or a batch page's). */
export type HarvestPositionsParameters = Omit<
  HarvestParameters,
  'address' | 'chain' | 'recordWrite'
>;

const RACED =
  'settlement_raced: a leg of this position settled while its value was read; harvest again';

/** Books what has yield in one statement; which positions came back stale (nothing written). */
async function bookMeasured(db: Books, measured: readonly Measured[]) {
  const booked = measured.filter((entry) => entry.booking);
  const outcomes = await recordHarvests(
    db,
    booked.map((entry) => entry.booking as HarvestBooking),
  );
  return new Set(
    booked.filter((_, index) => outcomes[index]?.stale === true).map((entry) => entry.position),
  );
}

const positionKey = (position: TrackedPosition) =>
  `${position.wallet}\n${position.chain}\n${position.opportunityId}`;

const raced = (position: TrackedPosition) =>
  positionResult(position, { outcome: 'unavailable', reason: RACED });

/**
 * Harvests positions set-wise: each is read on chain (concurrently), measured by its share
 * price, and every position with yield is booked in one statement (`recordHarvests`). A
 * position that moved while it was read (a leg settled, another harvest) is read and measured
 * again once; if it moved again it answers `unavailable` and books nothing.
 */
export async function harvestPositions(
  parameters: HarvestPositionsParameters,
  positions: readonly TrackedPosition[],
): Promise<HarvestPositionResult[]> {
  const measured = await measureAll(parameters, positions);
  const stale = await bookMeasured(parameters.db, measured);
  const again = new Map<string, HarvestPositionResult>();
  if (stale.size > 0) {
    const wallets = [...new Set([...stale].map((position) => position.wallet))];
    const keys = new Set([...stale].map(positionKey));
    const fresh = (await readTrackedPositions(parameters.db, wallets)).filter((position) =>
      keys.has(positionKey(position)),
    );
    const remeasured = await measureAll(parameters, fresh);
    const staleAgain = await bookMeasured(parameters.db, remeasured);
    for (const entry of remeasured) {
      again.set(
        positionKey(entry.position),
        staleAgain.has(entry.position) ? raced(entry.position) : entry.result,
      );
    }
  }
  return measured.map((entry) =>
    stale.has(entry.position)
      ? (again.get(positionKey(entry.position)) ?? raced(entry.position))
      : entry.result,
  );
}

/**
 * POST /wallets/{address}/harvest (permissionless): books the yield each venue position has
 * earned since it was last marked, as the venue's share price proves it on the shares our
 * settled legs minted (DESIGN §4): never "value minus basis", never from the request. The skim
 * (500 bps) and the profit fee (when switched on) go to protocol fees and stay inside the
 * position on chain; the rest is compounded into the staked balance, all through packages/fees.
 * Outside money on the same venue (an outside deposit, a leg not settled yet) is reported as
 * untracked and never skimmed, so no pending plan has to block a harvest. The mark is read and
 * moved under the position's version: a leg that settles while the value is read makes the
 * harvest measure again. `execute: true` books nothing: 202 with `prepared: true` and, per
 * position, the plan that realises its yield for the owner to sign (`prepareYieldPlans`).
 */
export async function harvestWallet(parameters: HarvestParameters): Promise<HarvestResult> {
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  const positions = (await readTrackedPositions(parameters.db, [wallet])).filter(
    (position) => !parameters.chain || position.chain === parameters.chain,
  );
  positions.sort((a, b) =>
    `${a.chain}/${a.opportunityId}` < `${b.chain}/${b.opportunityId}` ? -1 : 1,
  );
  const result = await bookWalletHarvest(parameters, wallet, positions);
  // The after_harvest trigger prepares a run for the owner to sign (never anything more). A
  // refusal or failure there leaves the harvest as booked: the owner can still run it by hand.
  if (!parameters.execute && result.positions.some((entry) => entry.outcome === 'harvested')) {
    await runAutoPayAfterHarvest({ ...parameters, wallets: [wallet] });
  }
  return result;
}

async function bookWalletHarvest(
  parameters: HarvestParameters,
  wallet: string,
  positions: TrackedPosition[],
): Promise<HarvestResult> {
  const { recordWrite } = parameters;
  if (parameters.execute) {
    let results = await harvestPositions(parameters, positions);
    if (parameters.yieldPlans) {
      results = await prepareYieldPlans(parameters, parameters.yieldPlans, positions, results);
    }
    const result = summarizeHarvest(parameters, wallet, results);
    // The plans are stored: a retry with the same Idempotency-Key answers the same plans.
    if (recordWrite) await parameters.db.transaction((tx) => recordWrite(tx, result));
    return result;
  }
  if (!recordWrite) {
    return summarizeHarvest(parameters, wallet, await harvestPositions(parameters, positions));
  }
  // With an Idempotency-Key: the bookings and the answer commit together (a position that
  // moved while it was read answers unavailable; the caller harvests again with a new key).
  const measured = await measureAll(parameters, positions);
  return parameters.db.transaction(async (tx) => {
    const stale = await bookMeasured(tx, measured);
    const result = summarizeHarvest(
      parameters,
      wallet,
      measured.map((entry) => (stale.has(entry.position) ? raced(entry.position) : entry.result)),
    );
    await recordWrite(tx, result);
    return result;
  });
}
