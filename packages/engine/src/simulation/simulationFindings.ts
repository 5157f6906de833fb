import type { PlanLegInput } from '@yieldrouter/ledger';
import type { SimulatedLeg, SimulationFinding } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';

const sumOf = (leg: SimulatedLeg, role: string) =>
  leg.changes
    .filter((change) => change.usdc && change.role === role)
    .reduce((total, change) => total + BigInt(change.delta), 0n);

/**
 * Where a simulated outcome is not what the plan says (zero tolerance: the amounts are the
 * plan's own). Any leg that reverts; on a settling venue deposit or withdraw leg, USDC changes
 * other than the owner sending (receiving) exactly the leg's amount and the venue receiving
 * (paying) exactly it, and any USDC reaching an account that is none of owner, venue and
 * treasury (the venue's side only where the simulation shows it). Swap legs are the quote's (their fill moves with the market): not judged here.
 */
export function simulationFindings(
  legs: readonly PlanLegInput[],
  simulated: readonly SimulatedLeg[],
): SimulationFinding[] {
  const findings: SimulationFinding[] = [];
  for (const leg of simulated) {
    const planned = legs[leg.index];
    if (!planned) continue;
    if (leg.outcome === 'reverted') {
      findings.push({
        legIndex: leg.index,
        code: 'reverted',
        message: `leg ${leg.index} reverts on the current state${leg.detail ? `: ${leg.detail}` : ''}`,
      });
      continue;
    }
    const direction =
      planned.action === 'deposit' ? -1n : planned.action === 'withdraw' ? 1n : undefined;
    // Venue legs only: a swap's fill and its fee lines are the quote's, checked on their own.
    if (!planned.settles || direction === undefined || planned.effect === 'swap') continue;
    for (const change of leg.changes) {
      if (change.usdc && change.role === 'other' && BigInt(change.delta) > 0n) {
        findings.push({
          legIndex: leg.index,
          code: 'unexpected_recipient',
          message: `${change.account} receives ${change.delta} USDC; it is not the owner, the venue or the treasury`,
        });
      }
    }
    const owner = sumOf(leg, 'owner');
    const venue = sumOf(leg, 'venue');
    const amount = planned.amountMicros;
    if (owner !== direction * amount) {
      findings.push({
        legIndex: leg.index,
        code: 'owner_amount_mismatch',
        message: `the owner's USDC changes by ${formatMicros(owner)}; the plan ${planned.action}s ${formatMicros(amount)}`,
      });
    }
    // A venue whose side the chain's simulation cannot show (Sui) is not judged: never guessed.
    const venueUnseen = leg.unobserved?.some((entry) => entry.role === 'venue') ?? false;
    if (!venueUnseen && venue !== -direction * amount) {
      findings.push({
        legIndex: leg.index,
        code: 'venue_amount_mismatch',
        message: `the venue's USDC changes by ${formatMicros(venue)}; the plan ${planned.action}s ${formatMicros(amount)}`,
      });
    }
  }
  return findings;
}
