import { createHash } from 'node:crypto';
import type { PlanInput, PlanLegInput, Prisma } from '@yieldrouter/ledger';
import type {
  BalanceChange,
  Chain,
  ChainAdapter,
  LegSimulationReading,
  PlanDocument,
  PlanSimulation,
  SimulatedLeg,
  VenueOnChain,
} from '@yieldrouter/schemas';
import { InvalidChainInputError, UnsignedPayload, formatMicros } from '@yieldrouter/schemas';
import { canonicalJson, legBytesDigest } from '@yieldrouter/verify';
import { z } from 'zod';
import { storedJson } from '../plan/storedJson';
import { accountKey, sameAccount } from './accountKey';
import { simulationFindings } from './simulationFindings';

/** `sha256:<hex>`: never a bare 64-hex string, a private key's shape (as 0043's keys). */
const sha256 = (text: string) =>
  `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

/**
 * The digest of a simulated outcome: sha256 of the canonical JSON of `{ planId, legs }` (keys
 * sorted, as a leg's bytes digest: the stored document comes back from JSONB in its order).
 */
export const simulationDigest = (planId: string, legs: readonly SimulatedLeg[]) =>
  sha256(canonicalJson({ planId, legs }));

/** Who an account is to this plan: its owner, its venue's contracts, the treasury, or other. */
export interface SimulationRoles {
  readonly owner: string;
  readonly venue: readonly string[];
  readonly treasury: readonly string[];
  /** Whom the plan pays (auto-pay's payee). */
  readonly payee?: readonly string[];
  /**
   * The skim a withdraw leg pays the treasury inside its own transaction, as the plan computed
   * it (the Solana router's, `planWithdrawSkim`), by leg index: the owner is judged against the
   * leg's amount less it, the treasury against it.
   */
  readonly legSkims?: ReadonlyMap<number, bigint>;
}

/** The role of an account or, failing that, of its holder (a Solana token account's owner). */
export const roleOf = (
  roles: SimulationRoles,
  change: { readonly account: string; readonly holder?: string | undefined },
): BalanceChange['role'] => {
  const ofOne = (account: string): BalanceChange['role'] => {
    const same = (other: string) => sameAccount(other, account);
    if (same(roles.owner)) return 'owner';
    if (roles.venue.some(same)) return 'venue';
    if (roles.treasury.some(same)) return 'treasury';
    if (roles.payee?.some(same)) return 'payee';
    return 'other';
  };
  const own = ofOne(change.account);
  return own === 'other' && change.holder !== undefined ? ofOne(change.holder) : own;
};

/**
 * The contracts the plan's own settling legs call (a swap router, a bridge messenger, a vault)
 * are its venues too: an approval to one of them is the plan's. A token an approval or a
 * transfer leg calls is not (it is the asset, not a party). The account the chain reports a
 * leg's own program pays the treasury (the Solana router's skim) is the treasury's.
 */
export const withCalledContracts = (
  roles: SimulationRoles,
  legs: readonly PlanLegInput[],
  reading: Extract<LegSimulationReading, { status: 'ok' }>,
  /** The index of the reading's first leg among the plan's (a deferred leg run alone). */
  first = 0,
): SimulationRoles => ({
  ...roles,
  // The treasury the chain's own program pays inside a leg (the Solana router's skim account).
  treasury: [...roles.treasury, ...(reading.treasury ?? [])],
  venue: [
    ...roles.venue,
    // The called program's own accounts (the Solana router's PDA, holder of its vault).
    ...(reading.venue ?? []),
    ...reading.legs.flatMap((leg, index) => {
      const action = legs[first + index]?.action;
      return action === 'approve' || action === 'transfer' ? [] : (leg.calls ?? []);
    }),
  ],
});

/** The venue's configured contracts (vault, pool, receipt token…): the `venue` role. */
export const venueAccounts = (venue: VenueOnChain | undefined): string[] =>
  venue
    ? Object.values(venue.ids).filter((id): id is string => typeof id === 'string' && id !== '')
    : [];

const unavailable = (
  reason: Extract<PlanSimulation, { status: 'unavailable' }>['reason'],
  detail: string,
): PlanSimulation => ({ status: 'unavailable', reason, detail });

type ReadLeg = Extract<LegSimulationReading, { status: 'ok' }>['legs'][number];

/**
 * A leg as the plan's simulation shows it: bound to its bytes, each change and approval with its
 * role. A deferred leg (Solana, Sui: it runs on what the leg before it leaves) has no changes
 * and names the leg it waits for.
 */
export function simulatedLeg(
  leg: ReadLeg,
  index: number,
  payload: UnsignedPayload,
  roles: SimulationRoles,
  usdc: string | undefined,
): SimulatedLeg {
  const bytesDigest = legBytesDigest(payload);
  if (leg.outcome === 'deferred') {
    return { index, bytesDigest, outcome: 'deferred', waitsFor: index - 1, changes: [] };
  }
  return {
    index,
    bytesDigest,
    outcome: leg.outcome,
    ...(leg.detail === undefined ? {} : { detail: leg.detail }),
    ...(leg.unobserved === undefined ? {} : { unobserved: [...leg.unobserved] }),
    changes: leg.changes.map((change) => ({
      account: change.account,
      ...(change.holder === undefined ? {} : { holder: change.holder }),
      role: roleOf(roles, change),
      asset: change.asset,
      usdc: accountKey(change.asset) === usdc,
      delta: formatMicros(change.delta),
    })),
    ...(leg.calls ? { calls: [...leg.calls] } : {}),
    ...(leg.approvals
      ? {
          approvals: leg.approvals.map((approval) => ({
            holder: approval.holder,
            spender: approval.spender,
            role: roleOf(roles, { account: approval.spender }),
            asset: approval.asset,
            usdc: accountKey(approval.asset) === usdc,
            allowance: formatMicros(approval.allowance),
          })),
        }
      : {}),
  };
}

/** The roles a deferred leg is judged with, as stored with the plan (0068's `deferred_roles`). */
const StoredRoles = z.object({
  venue: z.array(z.string()).optional(),
  treasury: z.array(z.string()).optional(),
  payee: z.array(z.string()).optional(),
  legSkims: z.record(z.string(), z.string().regex(/^(0|[1-9][0-9]*)$/)).optional(),
});

/** The roles a deferred leg is judged with, as stored with the plan (`StoredRoles`). */
export const storedRoles = (
  roles: Omit<SimulationRoles, 'owner'>,
): Required<z.infer<typeof StoredRoles>> => ({
  venue: [...roles.venue],
  treasury: [...roles.treasury],
  payee: [...(roles.payee ?? [])],
  legSkims: Object.fromEntries(
    [...(roles.legSkims ?? new Map<number, bigint>())].map(([index, skim]) => [
      String(index),
      skim.toString(),
    ]),
  ),
});

/** The stored roles back (`storedRoles`), with the plan's owner. */
export function rolesFromStored(stored: unknown, owner: string): SimulationRoles {
  const roles =
    stored === null || stored === undefined
      ? {}
      : storedJson(StoredRoles, stored, 'deferred_roles');
  return {
    owner,
    venue: roles.venue ?? [],
    treasury: roles.treasury ?? [],
    payee: roles.payee ?? [],
    legSkims: new Map(
      Object.entries(roles.legSkims ?? {}).map(([index, skim]) => [Number(index), BigInt(skim)]),
    ),
  };
}

/** The chains a plan may be simulated on: any adapters, by chain (absent: `not_supported`). */
export type SimulationAdapters = { readonly [C in Chain]?: Pick<ChainAdapter, 'simulateLegs'> };

export interface SimulatePlanParameters {
  readonly adapters: SimulationAdapters;
  readonly planId: string;
  readonly chain: Chain;
  readonly legs: readonly PlanLegInput[];
  readonly roles: SimulationRoles;
}

/**
 * Simulates a prepared plan's legs on the chain they are signed on, in order, and binds the
 * outcome to the unsigned bytes (issue 44): per leg, its bytes' digest, whether it runs, and
 * every account's token balance changes with its role; the findings where the USDC changes are
 * not the plan's; the digest of it all. A chain that cannot be read, or has no simulation, is
 * `unavailable` with the reason: never a guessed outcome. Legs on several chains (a cross-chain
 * deposit) are `unavailable` too: the later chain's state depends on a delivery not made yet.
 */
export async function simulatePlan(parameters: SimulatePlanParameters): Promise<PlanSimulation> {
  const { adapters, planId, chain, legs } = parameters;
  if (legs.some((leg) => (leg.chain ?? chain) !== chain)) {
    return unavailable('not_supported', 'the legs are signed on several chains');
  }
  const adapter = adapters[chain];
  if (!adapter?.simulateLegs) {
    return unavailable('not_supported', `${chain}: no simulation of legs on this chain yet`);
  }
  const payloads = legs.map((leg, legIndex) =>
    storedJson(UnsignedPayload, leg.payload, `leg ${legIndex}'s payload`),
  );
  let reading;
  try {
    reading = await adapter.simulateLegs({ owner: parameters.roles.owner, payloads });
  } catch (error) {
    if (!(error instanceof InvalidChainInputError)) throw error;
    return unavailable('not_supported', `${chain}: ${error.message}`);
  }
  if (reading.status === 'unavailable') return unavailable(reading.reason, reading.detail);
  const usdc = reading.usdc ? accountKey(reading.usdc) : undefined;
  const roles = withCalledContracts(parameters.roles, legs, reading);
  const simulated = reading.legs.map((leg, index) =>
    simulatedLeg(leg, index, payloads[index] as UnsignedPayload, roles, usdc),
  );
  return {
    status: 'simulated',
    chain,
    method: reading.method,
    block: reading.block,
    legs: simulated,
    findings: simulationFindings(legs, simulated, roles.owner, chain, roles.legSkims),
    digest: simulationDigest(planId, simulated),
  };
}

/**
 * A prepared plan with its simulation, in the record (stored in the plan's statement) and the
 * document (what prepare answers). A blocked plan, or one without an owner, is left as it is.
 */
export async function withSimulation<D extends PlanDocument>(
  adapters: SimulationAdapters,
  prepared: { readonly plan: PlanInput; readonly document: D },
  roles: Omit<SimulationRoles, 'owner'>,
): Promise<{ plan: PlanInput; document: D }> {
  const { plan, document } = prepared;
  if (plan.status !== 'prepared' || !plan.owner || plan.legs.length === 0) return prepared;
  const simulation = await simulatePlan({
    adapters,
    planId: plan.id,
    chain: plan.chain as Chain,
    legs: plan.legs,
    roles: { ...roles, owner: plan.owner },
  });
  const deferred =
    simulation.status === 'simulated' && simulation.legs.some((leg) => leg.outcome === 'deferred');
  return {
    plan: {
      ...plan,
      simulation: {
        status: simulation.status,
        digest: simulation.status === 'simulated' ? simulation.digest : null,
        document: simulation as unknown as Prisma.InputJsonObject,
        // Kept for the deferred legs' findings, computed once each runs (deferredLeg.ts).
        ...(deferred ? { deferredRoles: storedRoles(roles) } : {}),
      },
    },
    document: { ...document, simulation },
  };
}
