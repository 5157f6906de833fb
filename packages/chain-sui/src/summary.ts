import type { LegBuild, UnsignedPayload } from '@yieldrouter/schemas';
import { formatUnits, USDC_DECIMALS } from '@yieldrouter/schemas';
import type { SuiLegPlan } from './legPlan';

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/** One line a person reads before signing. */
export function legSummary(plan: SuiLegPlan): string {
  const amount = `${formatUnits(plan.amount, USDC_DECIMALS)} USDC`;
  const owner = shortAddress(plan.owner);
  if (!plan.venue) {
    // A wallet leg: the USDC stays with the owner; sending it to themselves proves they hold it.
    return plan.action === 'deposit'
      ? `Show ${amount} held in ${owner} on Sui, counted as liquid (sent to yourself; plan ${plan.planId})`
      : `Show ${amount} held in ${owner} on Sui, leaving liquid (sent to yourself; plan ${plan.planId})`;
  }
  const where = `${plan.venue.venueId} on Sui`;
  return plan.action === 'deposit'
    ? `Deposit ${amount} from ${owner} into ${where} (plan ${plan.planId})`
    : `Withdraw ${amount} from ${where} to ${owner} (plan ${plan.planId})`;
}

/** The one owner-signed leg of a Sui deposit or withdrawal. */
export function preparedLeg(plan: SuiLegPlan, payload: UnsignedPayload): LegBuild {
  return {
    status: 'prepared',
    legs: [
      {
        chain: 'sui',
        action: plan.action,
        summary: legSummary(plan),
        planId: plan.planId,
        amountMicros: plan.amount,
        settles: true,
        payload,
      },
    ],
  };
}
