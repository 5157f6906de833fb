import { assertYieldSkimBps } from './computeYieldSkim';
import { BPS_DENOMINATOR, assertMicros, defaultFeeSchedule } from './feeSchedule';

export interface GrossUpRouterWithdrawalParameters {
  /** What the owner asked to receive (micros). */
  readonly netMicros: bigint;
  /** The principal the Solana router recorded for the owner's venue position. */
  readonly principalMicros: bigint;
  /** What the receipts the router recorded are worth now (micros). */
  readonly valueMicros: bigint;
  /** The registry's skim; at most 1000 bps. */
  readonly skimBps?: number;
}

export interface GrossUpRouterWithdrawalReturnType {
  /** What the venue pays. */
  readonly grossMicros: bigint;
  /** The router's skim on it: the yield above the principal it carries, × bps, rounded down. */
  readonly skimMicros: bigint;
  /** What the owner keeps: `gross − skim`, at least the amount asked. */
  readonly netMicros: bigint;
}

/** The router's rule on a withdrawal of `gross` from a position worth `value` (pro rata). */
function routerSplit(gross: bigint, principal: bigint, value: bigint, bps: bigint) {
  const part = value === 0n ? 0n : (principal * gross + value - 1n) / value;
  const yieldMicros = gross > part ? gross - part : 0n;
  const skimMicros = (yieldMicros * bps) / BPS_DENOMINATOR;
  return { grossMicros: gross, skimMicros, netMicros: gross - skimMicros };
}

/**
 * A partial withdrawal through the Solana router, grossed up (issue #46): the router takes its
 * skim from what the venue pays (`computeVenueSkim`: the yield above the principal the burnt
 * receipts carry, rounded down), so the owner asking X needs the venue to pay the smallest gross
 * whose net is at least X. The receipts burnt are taken pro rata to what they pay (`gross /
 * value` of the position). At least the net of everything (`value` less its skim) answers the
 * split of everything: the caller withdraws what was asked. `skimMicros + netMicros ===
 * grossMicros` always.
 *
 * @example
 * grossUpRouterWithdrawal({ netMicros: 5_000_000n, principalMicros: 20_000_000n, valueMicros: 22_000_000n })
 * // { grossMicros: 5_022_831n, skimMicros: 22_831n, netMicros: 5_000_000n }
 */
export function grossUpRouterWithdrawal({
  netMicros,
  principalMicros,
  valueMicros,
  skimBps = defaultFeeSchedule.yieldSkimBps,
}: GrossUpRouterWithdrawalParameters): GrossUpRouterWithdrawalReturnType {
  assertYieldSkimBps(skimBps);
  assertMicros(netMicros, 'netMicros');
  assertMicros(principalMicros, 'principalMicros');
  assertMicros(valueMicros, 'valueMicros');
  const bps = BigInt(skimBps);
  const everything = routerSplit(valueMicros, principalMicros, valueMicros, bps);
  if (netMicros >= everything.netMicros) return everything;
  // net(g) never falls as g grows (one more micro adds at most one of skim): the smallest g in
  // [X, value] with net(g) ≥ X, by bisection.
  let low = netMicros;
  let high = valueMicros;
  while (low < high) {
    const middle = (low + high) / 2n;
    if (routerSplit(middle, principalMicros, valueMicros, bps).netMicros >= netMicros)
      high = middle;
    else low = middle + 1n;
  }
  return routerSplit(low, principalMicros, valueMicros, bps);
}
