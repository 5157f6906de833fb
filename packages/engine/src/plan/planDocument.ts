import type {
  BridgeTransferFields,
  LegEffect,
  PlanInput,
  PlanKind,
  PlanLegInput,
  Prisma,
} from '@yieldrouter/ledger';
import type { Chain, LegBuild, PlanDocument } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { legDocument, storedLegs } from './legDocument';

/** The venue a plan deposits into or withdraws from, as its document names it. */
export interface PlanVenue {
  readonly strategyId: string;
  readonly opportunityId: string;
  readonly venueId: string;
}

/**
 * A prepared (or blocked) plan: what every kind has, plus the per-kind parts — its fee line, the
 * legs the chain adapter built (or the blockers), the venue it names and what it discloses.
 */
export interface PlanParts<Disclosure extends object> {
  readonly planId: string;
  readonly kind: PlanKind;
  readonly chain: Chain;
  readonly amountMicros: bigint;
  /** The kind's fee line (what its fee math charges on the amount). */
  readonly feeMicros: bigint;
  /** The legs the owner signs, or the blockers that stopped the plan. */
  readonly build: LegBuild;
  /** The venue ids the document shows (before `chain`); none for plans without a venue. */
  readonly venue?: PlanVenue | undefined;
  /** What the kind discloses after the amount (owner, wallet, pending amounts, execution mode…). */
  readonly disclosure: Disclosure;
  readonly createdAt: Date;
}

/**
 * The plan document every prepare call answers with: `prepared` with unsigned owner-sign legs,
 * or `blocked` with catalog blockers; never submitted (the owner signs).
 */
export function planDocument<Disclosure extends object>(
  parts: PlanParts<Disclosure>,
): PlanDocument & Disclosure {
  const { build } = parts;
  return {
    planId: parts.planId,
    kind: parts.kind,
    status: build.status,
    submitted: false,
    ownerMustSign: build.status === 'prepared',
    feeMicros: formatMicros(parts.feeMicros),
    ...parts.venue,
    chain: parts.chain,
    amountMicros: formatMicros(parts.amountMicros),
    ...parts.disclosure,
    ...(build.status === 'prepared'
      ? { legs: build.legs.map(legDocument) }
      : { blockers: [...build.blockers] }),
    createdAt: parts.createdAt.toISOString(),
  };
}

/** How a plan is stored besides its document: who it follows and what its settling leg does. */
export interface PlanStorage {
  readonly venueId: string | null;
  readonly owner: string | null;
  /** The ledger wallet settlement moves. */
  readonly wallet: string | null;
  /** The request as asked (kept with the plan). */
  readonly request: Prisma.InputJsonValue;
  /** What the settling leg's receipt does to the ledger. */
  readonly effect: LegEffect;
  /** Swap plans: the swap parts of the document (tokens, quote, fee lines), kept with the plan. */
  readonly swap?: Prisma.InputJsonObject;
  /**
   * The legs as stored when they settle with different effects (a cross-asset plan: its swap
   * leg as a swap, its deposit leg with `effect`); by default every settling leg has `effect`.
   */
  readonly legs?: readonly PlanLegInput[];
  /** A prepared bridge, or a deposit that bridges first: what it bridges, stored with it. */
  readonly bridgeTransfer?: BridgeTransferFields;
}

/** The plan as `insertPlan` stores it, from the same parts as its document. */
export function planRecord(parts: PlanParts<object>, storage: PlanStorage): PlanInput {
  const { build } = parts;
  return {
    id: parts.planId,
    kind: parts.kind,
    status: build.status,
    chain: parts.chain,
    venueId: storage.venueId,
    owner: storage.owner,
    wallet: storage.wallet,
    amountMicros: parts.amountMicros,
    feeMicros: parts.feeMicros,
    request: storage.request,
    blockers: build.status === 'blocked' ? [...build.blockers] : [],
    ...(storage.swap ? { swap: storage.swap } : {}),
    legs: storage.legs ?? storedLegs(build, storage.effect, storage.venueId),
    createdAt: parts.createdAt,
    ...(storage.bridgeTransfer ? { bridgeTransfer: storage.bridgeTransfer } : {}),
  };
}

/**
 * A swap-kind plan as stored when it unwraps what its swap bought (a gas top-up, a swap into the
 * native token): each settling unwrap leg settles as an unwrap, its amount from its receipt;
 * likewise a wrap leg before a swap from the native token settles as a wrap.
 */
export function withUnwrapLegs(record: PlanInput): PlanInput {
  return {
    ...record,
    legs: record.legs.map((leg) =>
      (leg.action === 'unwrap' || leg.action === 'wrap') && leg.settles
        ? { ...leg, effect: leg.action }
        : leg,
    ),
  };
}
