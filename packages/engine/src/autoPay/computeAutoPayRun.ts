import { computePrincipalFee } from '@yieldrouter/fees';
import { readAutoPayConfig, readAutoPayPaidSince, readAutoPayPools } from '@yieldrouter/ledger';
import type { AutoPayConfigRow, AutoPayPool, Books } from '@yieldrouter/ledger';
import type { AutoPaySplit, Blocker, Chain } from '@yieldrouter/schemas';
import { describeBlockerCode, formatMicros } from '@yieldrouter/schemas';
import type { PoolClaimReader } from './readPoolClaim';
import { poolStanding, splitAutoPay } from './splitAutoPay';
import type { Split } from './splitAutoPay';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Which position a run pays from; by default the one with the most payable yield. */
export interface AutoPayTarget {
  readonly chain?: Chain | undefined;
  /** svcop… or the bare venue id. */
  readonly opportunityId?: string | undefined;
}

/** A run that can go ahead: the pool it pays from and how it splits. */
export interface AutoPayRun {
  readonly status: 'ready';
  readonly config: AutoPayConfigRow;
  readonly pool: AutoPayPool;
  readonly payableMicros: bigint;
  readonly split: Split;
  /**
   * What the run pays from shares returned by earlier runs' released payouts (in the owner's
   * liquid): the rest is withdrawn from the venue.
   */
  readonly fromReturnedMicros: bigint;
  readonly feeMicros: bigint;
}

export type AutoPayRunOutcome =
  | AutoPayRun
  | {
      readonly status: 'blocked';
      readonly blocker: Blocker;
      readonly config: AutoPayConfigRow | null;
    };

type BlockedCode =
  | 'auto_pay_off'
  | 'auto_pay_nothing_payable'
  | 'auto_pay_would_touch_principal'
  | 'yield_source_unavailable';

const blocked = (
  config: AutoPayConfigRow | null,
  code: BlockedCode,
  detail: string,
): AutoPayRunOutcome => ({
  status: 'blocked',
  config,
  blocker: { code, message: `${describeBlockerCode(code)} ${detail}` },
});

const matches = (pool: AutoPayPool, target: AutoPayTarget) =>
  (!target.chain || pool.chain === target.chain) &&
  (!target.opportunityId ||
    pool.opportunityId === target.opportunityId ||
    pool.venueId === target.opportunityId);

/**
 * What a run of the wallet's auto-pay would pay now, from the books (`lock`: inside the run's
 * transaction, the pools locked). Refused, with the reason, when auto-pay is off or paused,
 * nothing is payable (none harvested, below the threshold trigger, every payee under dust or
 * capped), or the payout is more than the position holds above its principal.
 */
export async function computeAutoPayRun(
  db: Books,
  wallet: string,
  target: AutoPayTarget,
  now: Date,
  options: {
    /** Inside the run's transaction: the pools are read locked. */
    readonly lock?: boolean;
    /** What the position's shares are worth on chain (the principal guard's other side). */
    readonly claimOf?: PoolClaimReader | undefined;
  } = {},
): Promise<AutoPayRunOutcome> {
  const { lock = false } = options;
  const config = await readAutoPayConfig(db, wallet);
  if (!config || !config.enabled)
    return blocked(config, 'auto_pay_off', 'Set and enable it first.');
  if (config.emergencyPause) return blocked(config, 'auto_pay_off', 'emergencyPause is on.');
  const pools = (await readAutoPayPools(db, wallet, { lock })).filter((pool) =>
    matches(pool, target),
  );
  const ranked = pools
    .map((pool) => ({ pool, standing: poolStanding(pool) }))
    .sort((a, b) => (b.standing.payableMicros > a.standing.payableMicros ? 1 : -1));
  const best = ranked[0];
  if (!best || best.standing.payableMicros === 0n) {
    return blocked(config, 'auto_pay_nothing_payable', 'No harvested yield is payable.');
  }
  const { pool, standing } = best;
  if (config.trigger === 'threshold' && standing.payableMicros < config.minAmountMicros) {
    return blocked(
      config,
      'auto_pay_nothing_payable',
      `${formatMicros(standing.payableMicros)} micros payable, below the threshold ${formatMicros(config.minAmountMicros)}.`,
    );
  }
  const paidToday =
    config.maxPerPayeePerDayMicros === null
      ? new Map<string, bigint>()
      : await readAutoPayPaidSince(
          db,
          wallet,
          config.payees.map((payee) => payee.address),
          new Date(now.getTime() - DAY_MS),
        );
  const split = splitAutoPay({
    availableCentimicros: standing.availableCentimicros,
    payees: config.payees,
    dustMicros: config.dustMicros,
    maxPerPayeePerDayMicros: config.maxPerPayeePerDayMicros,
    paidToday,
  });
  if (split.amountMicros === 0n) {
    return blocked(config, 'auto_pay_nothing_payable', 'Every payee is under dust or capped.');
  }
  const claim = options.claimOf ? await options.claimOf(pool) : undefined;
  if (claim?.status === 'unavailable') {
    return blocked(config, 'yield_source_unavailable', claim.detail);
  }
  const { headroomMicros } = claim ? poolStanding(pool, claim.claimMicros) : standing;
  const fromReturnedMicros = [split.amountMicros, pool.returnedMicros, pool.liquidMicros].reduce(
    (least, value) => (value < least ? value : least),
  );
  const withdrawMicros = split.amountMicros - (fromReturnedMicros > 0n ? fromReturnedMicros : 0n);
  if (withdrawMicros > headroomMicros) {
    return blocked(
      config,
      'auto_pay_would_touch_principal',
      `The payout takes ${formatMicros(withdrawMicros)} micros from the venue; ${pool.opportunityId} holds ${formatMicros(headroomMicros)} above its principal (${formatMicros(pool.principalMicros)}).`,
    );
  }
  const { feeMicros } = computePrincipalFee({ amountMicros: split.amountMicros, kind: 'withdraw' });
  return {
    status: 'ready',
    config,
    pool,
    payableMicros: standing.payableMicros,
    split,
    fromReturnedMicros: split.amountMicros - withdrawMicros,
    feeMicros,
  };
}

/** The split as documents show it. */
export function splitDocument(run: AutoPayRun): AutoPaySplit {
  const { pool, split } = run;
  return {
    chain: pool.chain as Chain,
    opportunityId: pool.opportunityId,
    venueId: pool.venueId,
    payableMicros: formatMicros(run.payableMicros),
    amountMicros: formatMicros(split.amountMicros),
    remainderMicros: formatMicros(split.remainderMicros),
    feeMicros: formatMicros(run.feeMicros),
    payouts: split.payouts.map((payout) => ({
      payeeId: payout.payeeId,
      address: payout.address,
      weightBps: payout.weightBps,
      shareMicros: formatMicros(payout.shareMicros),
      amountMicros: formatMicros(payout.amountMicros),
      skipped: payout.skipped,
    })),
  };
}
