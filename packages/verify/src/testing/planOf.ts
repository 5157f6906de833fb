import type { UnsignedLeg } from '@yieldrouter/schemas';
import type { VerifiableLeg, VerifiablePlan } from '../verdict';

/** A prepared plan document of legs an adapter built, as the API serves it (engine's shape). */
export function planOf(
  planId: string,
  owner: string,
  legs: readonly UnsignedLeg[],
  extra: Partial<VerifiablePlan> = {},
): VerifiablePlan & { legs: VerifiableLeg[] } {
  return {
    planId,
    status: 'prepared',
    owner,
    feeMicros: '0',
    ...extra,
    legs: legs.map((leg, index) => ({
      index,
      action: leg.action,
      amountMicros: String(leg.amountMicros),
      encoding: leg.payload.encoding,
      transaction: leg.payload.transaction,
    })),
  };
}

/** The same plan with leg `index` changed by `change` (what a tampering server would send). */
export function withLeg(
  plan: VerifiablePlan & { legs: VerifiableLeg[] },
  index: number,
  change: (leg: VerifiableLeg) => VerifiableLeg,
): VerifiablePlan {
  return { ...plan, legs: plan.legs.map((leg) => (leg.index === index ? change(leg) : leg)) };
}
