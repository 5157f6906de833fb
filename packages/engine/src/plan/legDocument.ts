import type { LegEffect, PlanLegInput, Prisma, StoredPlanLeg } from '@yieldrouter/ledger';
import type { LegAction, LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import { UnsignedPayload, formatMicros } from '@yieldrouter/schemas';
import { storedJson } from './storedJson';

type LegStatus = StoredPlanLeg['status'];

/**
 * A payload as served: an EVM request with its keys in canonical order (sorted, as its bytes
 * digest reads them), whatever order it was built or stored in (JSONB keeps its own), so a
 * verifier that digests the text as served (the SDK's before the digest was canonical) agrees.
 */
const servedPayload = (payload: UnsignedPayload): UnsignedPayload => {
  if (payload.encoding !== 'evm-transaction-request') return payload;
  // Every stored field is kept: one the schema names later is served, not dropped here.
  const { chainId, data, from, to, value, ...rest } = payload.transaction;
  return { ...payload, transaction: { chainId, data, from, to, value, ...rest } };
};

/** The fields every leg document has: what to sign, and where the leg stands. */
function legFields(
  leg: {
    readonly action: string;
    readonly summary: string;
    readonly amountMicros: bigint;
    readonly settles: boolean;
    readonly payload: UnsignedPayload;
  },
  index: number,
  status: LegStatus,
  txId: string | null,
) {
  return {
    index,
    action: leg.action as LegAction,
    summary: leg.summary,
    amountMicros: formatMicros(leg.amountMicros),
    settles: leg.settles,
    status,
    txId,
    ...servedPayload(leg.payload),
  };
}

/** A freshly built leg as a plan document shows it: unsigned, no transaction yet. */
export function legDocument(leg: UnsignedLeg, index: number) {
  return legFields(leg, index, 'unsigned', null);
}

/** A stored leg payload as the adapter built it (`storedLegs` wrote an `UnsignedPayload`). */
export const storedPayload = (leg: Pick<StoredPlanLeg, 'legIndex' | 'payload'>): UnsignedPayload =>
  storedJson(UnsignedPayload, leg.payload, `leg ${leg.legIndex}'s payload`);

/** A stored leg as GET /svc/plans/{planId} shows it: as prepared, plus its settlement state. */
export function storedLegDocument(leg: StoredPlanLeg) {
  return {
    ...legFields({ ...leg, payload: storedPayload(leg) }, leg.legIndex, leg.status, leg.txId),
    settledAmountMicros:
      leg.settledAmountMicros === null ? null : formatMicros(leg.settledAmountMicros),
    sharesSettled: leg.shares === null ? null : leg.shares.toString(),
    failureReason: leg.failureReason,
    reviewReason: leg.reviewReason,
    releasedAt: leg.releasedAt?.toISOString() ?? null,
    updatedAt: leg.updatedAt.toISOString(),
  };
}

/** A built leg as stored: `effect` (what its receipt does to the ledger) if it settles. */
export function storedLeg(
  leg: UnsignedLeg,
  effect: LegEffect,
  venueId: string | null,
): PlanLegInput {
  return {
    action: leg.action,
    summary: leg.summary,
    amountMicros: leg.amountMicros,
    settles: leg.settles,
    // Leg payloads are plain JSON already (strings and numbers).
    payload: leg.payload as Prisma.InputJsonObject,
    effect: leg.settles ? effect : 'none',
    venueId,
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
  return build.legs.map((leg) => storedLeg(leg, effect, venueId));
}
