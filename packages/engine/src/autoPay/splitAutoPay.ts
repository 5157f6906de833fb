import type { AutoPayPayeeRow } from '@yieldrouter/ledger';

/** Percent × weight basis points: a payee's share is floor(pool × pct × bps / this). */
const PERCENT_BPS = 100n * 10_000n;

/** A position's pool as the books hold it (see `readAutoPayPools`). */
export interface PoolFigures {
  /** Σ harvest net × percentage (hundredths of a micro). */
  readonly accruedCentimicros: bigint;
  readonly committedMicros: bigint;
  readonly stakedMicros: bigint;
  readonly principalMicros: bigint;
  readonly openWithdrawalsMicros: bigint;
}

export interface PoolStanding {
  /** Accrued less committed, in hundredths of a micro (never below 0). */
  readonly availableCentimicros: bigint;
  /** What a run may pay at most: floor(available / 100). */
  readonly payableMicros: bigint;
  /** What the position holds above principal and open auto-pay withdrawals (never below 0). */
  readonly headroomMicros: bigint;
}

const atLeastZero = (value: bigint) => (value > 0n ? value : 0n);

/**
 * What a pool may pay, and how much the position holds above its principal: the staked balance
 * or, when lower, what its shares are worth on chain (`claimMicros`), less principal and the
 * auto-pay withdrawals still open.
 */
export function poolStanding(pool: PoolFigures, claimMicros = pool.stakedMicros): PoolStanding {
  const availableCentimicros = atLeastZero(pool.accruedCentimicros - 100n * pool.committedMicros);
  const held = claimMicros < pool.stakedMicros ? claimMicros : pool.stakedMicros;
  return {
    availableCentimicros,
    payableMicros: availableCentimicros / 100n,
    headroomMicros: atLeastZero(held - pool.principalMicros - pool.openWithdrawalsMicros),
  };
}

export interface SplitParameters {
  readonly availableCentimicros: bigint;
  readonly payees: readonly AutoPayPayeeRow[];
  readonly dustMicros: bigint;
  /** Null: no cap. */
  readonly maxPerPayeePerDayMicros: bigint | null;
  /** What each payee address was paid in the last 24 hours. */
  readonly paidToday: ReadonlyMap<string, bigint>;
}

export interface SplitPayout extends AutoPayPayeeRow {
  /** floor(pool × weightBps / 10000), exact in bigint. */
  readonly shareMicros: bigint;
  /** What the transfer pays: the share, capped; 0 when skipped. */
  readonly amountMicros: bigint;
  readonly skipped: 'dust' | 'daily_cap' | null;
}

export interface Split {
  readonly payouts: readonly SplitPayout[];
  /** Σ amounts: what the withdraw leg takes from the venue. */
  readonly amountMicros: bigint;
  /** The pool's payable micros not paid this run: it stays with the wallet, still payable. */
  readonly remainderMicros: bigint;
}

/**
 * Splits a pool between payees in bigint: each gets floor(pool × weightBps / 10000), which for
 * a pool of one harvest is exactly floor(net × percentage / 100 × weightBps / 10000) (the pool
 * keeps hundredths of a micro, so nothing rounds before the split). The daily cap trims a share
 * to what the payee may still receive in 24 hours; a payout under `dustMicros` (or 0) is
 * skipped. Whatever is not paid (rounding, dust, caps) stays in the pool for a later run.
 */
export function splitAutoPay(parameters: SplitParameters): Split {
  const { availableCentimicros, dustMicros, maxPerPayeePerDayMicros } = parameters;
  const payouts = parameters.payees.map((payee): SplitPayout => {
    const shareMicros = (availableCentimicros * BigInt(payee.weightBps)) / PERCENT_BPS;
    let amountMicros = shareMicros;
    if (maxPerPayeePerDayMicros !== null) {
      const room = atLeastZero(
        maxPerPayeePerDayMicros - (parameters.paidToday.get(payee.address) ?? 0n),
      );
      if (room === 0n && shareMicros > 0n) {
        return { ...payee, shareMicros, amountMicros: 0n, skipped: 'daily_cap' };
      }
      if (amountMicros > room) amountMicros = room;
    }
    if (amountMicros === 0n || amountMicros < dustMicros) {
      return { ...payee, shareMicros, amountMicros: 0n, skipped: 'dust' };
    }
    return { ...payee, shareMicros, amountMicros, skipped: null };
  });
  const amountMicros = payouts.reduce((total, payout) => total + payout.amountMicros, 0n);
  return { payouts, amountMicros, remainderMicros: availableCentimicros / 100n - amountMicros };
}
