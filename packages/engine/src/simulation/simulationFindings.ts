import { MAX_YIELD_SKIM_BPS } from '@yieldrouter/fees';
import type { PlanLegInput } from '@yieldrouter/ledger';
import type { SimulatedLeg, SimulationFinding } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { venueRoundingMicros } from '../venues/catalog';
import { sameAccount } from './accountKey';

const sumOf = (leg: SimulatedLeg, role: string) =>
  leg.changes
    .filter((change) => change.usdc && change.role === role)
    .reduce((total, change) => total + BigInt(change.delta), 0n);

/**
 * What a settling leg says its USDC does: the owner's change, and who takes (pays) the other
 * side. A burn's other side is burned (nobody), a Sui wallet leg's is the owner themself; legs
 * not listed here are judged for their recipients only.
 */
function plannedMove(
  leg: PlanLegInput,
  chain: string,
): { owner: bigint; counterpart?: 'venue' | 'payee' } | undefined {
  const amount = leg.amountMicros;
  // A Sui wallet leg (a deposit into or withdrawal from liquid, no venue): liquid on Sui is the
  // owner's wallet, so the owner sends the amount to themselves (it proves they hold it) and
  // their USDC does not change.
  const walletLeg =
    (leg.chain ?? chain) === 'sui' &&
    !leg.venueId &&
    (leg.action === 'deposit' || leg.action === 'withdraw');
  if (walletLeg) return { owner: 0n };
  if (leg.action === 'deposit') return { owner: -amount, counterpart: 'venue' };
  if (leg.action === 'withdraw') return { owner: amount, counterpart: 'venue' };
  if (leg.action === 'transfer' && leg.effect === 'pay_out') {
    return { owner: -amount, counterpart: 'payee' };
  }
  if (leg.action === 'burn') return { owner: -amount };
  return undefined;
}

/** The receipts a leg mints the owner (burns, `-1n`): its changes in assets other than USDC. */
const ownerReceipts = (leg: SimulatedLeg, sign: 1n | -1n) =>
  leg.changes
    .filter((change) => !change.usdc && change.role === 'owner' && sign * BigInt(change.delta) > 0n)
    .reduce((total, change) => total + sign * BigInt(change.delta), 0n);

/**
 * How far a venue leg's owner may be off the leg's amount in the owner's favour, by the venue's
 * documented rounding, measured on the simulated leg: a deposit may take less than the amount
 * (`depositRoundingMicros`: kamino keeps back less than one cToken's worth), a withdrawal may pay
 * more (`withdrawRoundingMicros`: the plan burns the receipts worth at least the amount, kamino,
 * jupiter-lend and save pay them rounded down, so less than one receipt's worth beyond it), each
 * as the venue declares it for that direction (`venueRounding`); 0 for any other leg.
 */
export function venueRoundingOf(
  planned: { readonly action: string; readonly venueId?: string | null; readonly chain?: string },
  leg: SimulatedLeg,
  chain: string,
): bigint {
  const deposit = planned.action === 'deposit';
  return venueRoundingMicros(
    planned.chain ?? chain,
    planned.venueId,
    planned.action,
    deposit ? -sumOf(leg, 'owner') : sumOf(leg, 'owner'),
    ownerReceipts(leg, deposit ? 1n : -1n),
  );
}

/** The largest skim the router's registry takes (packages/fees, the program's `YR_MAX_SKIM_BPS`). */
const MAX_SKIM_BPS = BigInt(MAX_YIELD_SKIM_BPS);

const COUNTERPART_CODE = {
  venue: 'venue_amount_mismatch',
  payee: 'payee_amount_mismatch',
} as const;

/** Approvals of the owner's tokens: to a party of the plan, for at most the leg's amount. */
function approvalFindings(
  planned: PlanLegInput,
  leg: SimulatedLeg,
  owner: string,
): SimulationFinding[] {
  const findings: SimulationFinding[] = [];
  for (const approval of leg.approvals ?? []) {
    if (!sameAccount(approval.holder, owner)) continue;
    if (approval.role === 'other') {
      findings.push({
        legIndex: leg.index,
        code: 'approval_foreign_spender',
        message: `${approval.spender} may spend the owner's ${approval.asset}; no leg of the plan calls it`,
      });
    }
    if (BigInt(approval.allowance) > planned.amountMicros) {
      findings.push({
        legIndex: leg.index,
        code: 'approval_beyond_amount',
        message: `${approval.spender} may spend ${approval.allowance} of ${approval.asset}; the leg's amount is ${formatMicros(planned.amountMicros)}`,
      });
    }
  }
  return findings;
}

/**
 * Where a simulated outcome is not what the plan says (zero tolerance: the amounts are the
 * plan's own). Any leg that reverts; any approval of the owner's tokens to a spender no leg of
 * the plan calls, or beyond the leg's amount; on a settling leg other than a swap, USDC reaching
 * an account that is none of owner, venue, treasury and payee, and on a venue deposit or
 * withdrawal, a payout or a burn, the owner's USDC changing otherwise than by exactly the leg's
 * amount (a deposit: less, a withdrawal: more, by its venue's documented rounding,
 * `venueRoundingOf`; the owner is never paid less, nor charged more), or the
 * venue (payee) not receiving (paying) exactly what the owner paid (received). A withdrawal
 * whose own program pays the treasury a skim (`legSkims`: the Solana router's, as the plan
 * computed it): the owner is judged against the leg's amount less the skim, the venue against
 * the owner's and the skim, and the treasury receiving other than the skim is
 * `treasury_amount_mismatch`. Swap legs are the quote's
 * (their fill moves with the market): their amounts are not judged here. The venue's side is judged only where the
 * simulation shows it (a Sui venue's shared objects: `unobserved`).
 */
export function simulationFindings(
  legs: readonly PlanLegInput[],
  simulated: readonly SimulatedLeg[],
  owner: string,
  chain = '',
  legSkims: ReadonlyMap<number, bigint> = new Map(),
): SimulationFinding[] {
  const findings: SimulationFinding[] = [];
  for (const leg of simulated) {
    const planned = legs[leg.index];
    // A deferred leg has not run yet: nothing to judge (its findings come when it runs).
    if (!planned || leg.outcome === 'deferred') continue;
    if (leg.outcome === 'reverted') {
      findings.push({
        legIndex: leg.index,
        code: 'reverted',
        message: `leg ${leg.index} reverts on the current state${leg.detail ? `: ${leg.detail}` : ''}`,
      });
      continue;
    }
    findings.push(...approvalFindings(planned, leg, owner));
    // A swap's fill and its fee lines are the quote's, checked on their own.
    if (!planned.settles || planned.effect === 'swap' || planned.action === 'swap') continue;
    for (const change of leg.changes) {
      if (change.usdc && change.role === 'other' && BigInt(change.delta) > 0n) {
        findings.push({
          legIndex: leg.index,
          code: 'unexpected_recipient',
          message: `${change.account} receives ${change.delta} micros of USDC; it is not the owner, the venue, the treasury or the payee`,
        });
      }
    }
    const planMove = plannedMove(planned, chain);
    if (!planMove) continue;
    // A withdrawal whose program pays the treasury inside it (the Solana router's skim): the
    // owner receives the leg's amount less the skim the plan computed, the treasury exactly it.
    const skim = planned.action === 'withdraw' ? (legSkims.get(leg.index) ?? 0n) : 0n;
    const move = { ...planMove, owner: planMove.owner - skim };
    const ownerDelta = sumOf(leg, 'owner');
    const treasuryDelta = skim > 0n ? sumOf(leg, 'treasury') : 0n;
    const amount = formatMicros(planned.amountMicros);
    // In the owner's favour by the venue's rounding: a deposit may take less than the leg's
    // amount, a withdrawal pay more; never the other way. A skim its program computes on what
    // the venue paid takes its share of a withdrawal's rounding: at most the registry's largest
    // skim of it, and the floor's one micro.
    const kept = ownerDelta - move.owner;
    const skimKept = treasuryDelta - skim;
    const extra = kept + skimKept;
    const rounded =
      extra > 0n &&
      kept >= 0n &&
      skimKept >= 0n &&
      extra <= venueRoundingOf(planned, leg, chain) &&
      skimKept <= (extra * MAX_SKIM_BPS) / 10_000n + 1n;
    if (skimKept !== 0n && !rounded) {
      findings.push({
        legIndex: leg.index,
        code: 'treasury_amount_mismatch',
        message: `the treasury's USDC changes by ${formatMicros(treasuryDelta)}; the plan's skim on this leg is ${formatMicros(skim)}`,
      });
    }
    // The venue (payee) receives (pays) what the owner paid (received), and the treasury's skim:
    // the amount, or rounded.
    const counterpartExpected = rounded ? -ownerDelta - treasuryDelta : -move.owner - skim;
    if (kept !== 0n && !rounded) {
      findings.push({
        legIndex: leg.index,
        code: 'owner_amount_mismatch',
        message: `the owner's USDC changes by ${formatMicros(ownerDelta)}; the plan ${planned.action}s ${amount}${skim > 0n ? `, less its skim of ${formatMicros(skim)}` : ''}`,
      });
    }
    // A venue whose side the chain's simulation cannot show (Sui) is not judged: never guessed.
    const venueUnseen =
      move.counterpart === 'venue' &&
      (leg.unobserved?.some((entry) => entry.role === 'venue') ?? false);
    if (move.counterpart && !venueUnseen && sumOf(leg, move.counterpart) !== counterpartExpected) {
      findings.push({
        legIndex: leg.index,
        code: COUNTERPART_CODE[move.counterpart],
        message: `the ${move.counterpart}'s USDC changes by ${formatMicros(sumOf(leg, move.counterpart))}; the plan ${planned.action}s ${amount}`,
      });
    }
  }
  return findings;
}
