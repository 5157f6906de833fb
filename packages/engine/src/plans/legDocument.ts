import type { LegEffect, PlanLegInput, Prisma } from '@yieldrouter/ledger';
import type { LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';

/** A freshly built leg as a plan document shows it: unsigned, no transaction yet. */
export function legDocument(leg: UnsignedLeg, index: number) {
  return {
    index,
    action: leg.action,
    summary: leg.summary,
    amountMicros: formatMicros(leg.amountMicros),
    settles: leg.settles,
    status: 'unsigned' as const,
    txId: null,
    ...leg.payload,
  };
}

/**
 * The legs of a build as stored: the settling leg gets `effect` (what its receipt does to the
 * ledger), the others `none`; a blocked build has no legs.
 */
export function storedLegs(
  build: LegBuild,
  effect: LegEffect,
  venueId: string | null,
): PlanLegInput[] {
  if (build.status !== 'prepared') return [];
  return build.legs.map((leg) => ({
    action: leg.action,
    summary: leg.summary,
    amountMicros: leg.amountMicros,
    settles: leg.settles,
    // Leg payloads are plain JSON already (strings and numbers).
    payload: leg.payload as Prisma.InputJsonObject,
    effect: leg.settles ? effect : 'none',
    venueId,
  }));
}
