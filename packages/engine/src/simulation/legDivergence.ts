import { findPlanSimulation, recordPlanDivergence } from '@yieldrouter/ledger';
import type {
  Books,
  OutboxEventInput,
  SettlementLeg,
  StoredPlanSimulation,
} from '@yieldrouter/ledger';
import type {
  BalanceChange,
  Chain,
  ChainBalanceChange,
  DivergentChange,
  PlanDivergenceData,
  SimulatedLeg,
} from '@yieldrouter/schemas';
import { PlanSimulation, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { storedJson } from '../plan/storedJson';
import { accountKey, sameAccount } from './accountKey';
import { roleOf } from './simulatePlan';
import { venueRoundingOf } from './simulationFindings';

/**
 * A leg's stated bound: a swap's owner may receive up to `slippageBps` less than simulated; a
 * venue deposit's (withdrawal's) USDC balances may differ from the simulated by the venue's
 * documented rounding (`roundingMicros`: kamino keeps back, or pays beyond the amount, less than
 * one cToken's worth, and the rate moves between prepare and landing).
 */
export type DivergenceBound =
  { readonly slippageBps: number } | { readonly roundingMicros: bigint };

/**
 * The changes that differ between the simulation of a leg and what its transaction moved,
 * account by account. Without a bound (a venue leg, a payout, a burn): every USDC balance, at
 * zero tolerance (the amounts are the plan's own). With a venue leg's rounding: every USDC
 * balance, within that many micros either way. With a slippage (a swap, whose pool moves with the
 * market): the owner's balances in every asset; what the owner receives may fall short of the
 * simulation by the slippage (rounded down) and no more, what the owner pays not at all. An
 * account the simulation did not name keeps the role it would have had: the owner, or `other`.
 */
export function divergentChanges(
  simulated: readonly BalanceChange[],
  actual: readonly ChainBalanceChange[],
  owner: string,
  bound?: DivergenceBound,
): DivergentChange[] {
  const isOwner = (account: string) => sameAccount(account, owner);
  const usdcAsset = simulated.find((change) => change.usdc)?.asset;
  const usdc = usdcAsset === undefined ? undefined : accountKey(usdcAsset);
  const swap = bound !== undefined && 'slippageBps' in bound;
  const compared = (account: string, asset: string) =>
    swap ? isOwner(account) : accountKey(asset) === usdc;
  const rows = new Map<string, DivergentChange>();
  const keyOf = (account: string, asset: string) => `${accountKey(asset)}:${accountKey(account)}`;
  const role = (change: ChainBalanceChange): BalanceChange['role'] =>
    roleOf({ owner, venue: [], treasury: [] }, change) === 'owner' ? 'owner' : 'other';
  for (const change of simulated.filter((entry) => compared(entry.account, entry.asset))) {
    rows.set(keyOf(change.account, change.asset), {
      account: change.account,
      ...(change.holder === undefined ? {} : { holder: change.holder }),
      role: change.role,
      asset: change.asset,
      simulated: change.delta,
      actual: '0',
    });
  }
  for (const change of actual.filter((entry) => compared(entry.account, entry.asset))) {
    const key = keyOf(change.account, change.asset);
    const row = rows.get(key) ?? {
      account: change.account,
      ...(change.holder === undefined ? {} : { holder: change.holder }),
      role: role(change),
      asset: change.asset,
      simulated: '0',
      actual: '0',
    };
    rows.set(key, { ...row, actual: formatMicros(BigInt(row.actual) + change.delta) });
  }
  return [...rows.values()].flatMap((row) => {
    const expected = BigInt(row.simulated);
    const got = BigInt(row.actual);
    if (!bound) return expected === got ? [] : [row];
    if (!swap) {
      const { roundingMicros } = bound;
      const off = got > expected ? got - expected : expected - got;
      return off <= roundingMicros ? [] : [{ ...row, tolerance: formatMicros(roundingMicros) }];
    }
    // Received: a shortfall within the slippage is the market's; paid: exactly.
    const tolerance = expected > 0n ? (expected * BigInt(bound.slippageBps)) / 10_000n : 0n;
    const within = expected > 0n ? got >= expected - tolerance : got >= expected;
    return within ? [] : [{ ...row, tolerance: formatMicros(tolerance) }];
  });
}

/** The legs settlement compares, by what they do: venue legs, payouts, burns and swaps. */
const COMPARED_ACTIONS: ReadonlySet<string> = new Set([
  'deposit',
  'withdraw',
  'transfer',
  'burn',
  'swap',
]);

/**
 * A leg's bound at settlement: a swap's slippage (stored with its plan); a venue deposit's or
 * withdrawal's rounding, measured on its simulation (`venueRoundingOf`); none for any other.
 */
function boundOf(leg: SettlementLeg, simulated: SimulatedLeg): DivergenceBound | undefined {
  if (leg.effect !== 'swap' && leg.action !== 'swap') {
    const roundingMicros = venueRoundingOf(leg, simulated, leg.chain);
    return roundingMicros > 0n ? { roundingMicros } : undefined;
  }
  const swap = leg.swap as { readonly slippageBps?: unknown } | null;
  const slippageBps = typeof swap?.slippageBps === 'number' ? swap.slippageBps : 0;
  return { slippageBps };
}

/**
 * Whether a leg simulated after the leg before it settled (its own `block`: Solana, Sui) landed
 * before that simulation ran: sent before it, its transaction is in the state the simulation
 * ran on, so the simulation is not of the state it ran on and is not compared (the verifier
 * said the leg was not simulated yet when it was signed). Solana: its slot is before the slot
 * simulated at (the slot the bed and a node answer is the one a transaction sent then lands in
 * or after); Sui: its checkpoint is at or before the latest checkpoint the dry run ran after. A
 * position not known (a Sui transaction not checkpointed yet) is compared.
 */
export function landedBeforeItsSimulation(
  chain: string,
  landed: string | undefined,
  simulated: string | null | undefined,
): boolean {
  if (landed === undefined || simulated === undefined || simulated === null) return false;
  return chain === 'sui' ? BigInt(landed) <= BigInt(simulated) : BigInt(landed) < BigInt(simulated);
}

/** What a leg's divergence adds to its settlement: the event, and a note for the review. */
export interface LegDivergence {
  readonly events: OutboxEventInput[];
  readonly note: string | null;
}

const NONE: LegDivergence = { events: [], note: null };

/**
 * Settlement's check of a confirmed leg against the plan's simulation (issue 44): when the
 * plan was simulated, what the transaction moved is read from the chain (the same reading as
 * the simulation's) and compared. A difference is recorded (plan_divergences) before the books
 * move, and returned as a `plan.divergence` event and a review note that the settlement writes
 * with its booking: never booked silently. A chain that cannot be read for it is 503 (fail
 * closed; the caller settles again). Plans not simulated (unavailable, or stored before) are
 * not compared.
 */
export async function legDivergence(
  parameters: {
    readonly db: Books;
    readonly adapters: ChainAdapters;
    readonly txId: string;
    readonly now: Date;
  },
  leg: SettlementLeg,
  /** The plan's simulation when read with the leg (null: none stored); undefined: read here. */
  readWithLeg?: StoredPlanSimulation | null,
): Promise<LegDivergence> {
  const { db, adapters, txId, now } = parameters;
  // Legs that move money: venue legs (within their venue's rounding), payouts and fee
  // transfers, burns (zero tolerance), swaps (within their slippage: the fill moves with the
  // market between prepare and landing).
  if (!leg.owner || !leg.wallet || !COMPARED_ACTIONS.has(leg.action)) return NONE;
  const stored = readWithLeg === undefined ? await findPlanSimulation(db, leg.planId) : readWithLeg;
  if (!stored || stored.status !== 'simulated' || !stored.digest) return NONE;
  const simulation = storedJson(PlanSimulation, stored.document, `plan ${leg.planId}'s simulation`);
  if (simulation.status !== 'simulated') return NONE;
  const simulated = simulation.legs.find((entry) => entry.index === leg.legIndex);
  const adapter = adapters[leg.chain as Chain];
  if (!simulated || simulation.chain !== leg.chain || !adapter.readLegChanges) return NONE;
  const reading = await adapter.readLegChanges(txId);
  if (reading.status !== 'ok') {
    const why = reading.status === 'pending' ? 'not mined yet' : reading.detail;
    throw new EngineError(
      'SERVICE_UNAVAILABLE',
      `${leg.chain}: what ${txId} moved could not be read to compare with the plan's simulation (${why}); try again`,
    );
  }
  if (landedBeforeItsSimulation(leg.chain, reading.block, simulated.block)) return NONE;
  const changes = divergentChanges(
    simulated.changes,
    reading.changes,
    leg.owner,
    boundOf(leg, simulated),
  );
  if (changes.length === 0) return NONE;
  await recordPlanDivergence(db, {
    planId: leg.planId,
    legIndex: leg.legIndex,
    txId,
    simulationDigest: stored.digest,
    changes: changes.map((change) => ({ ...change })),
    now,
  });
  const payload: PlanDivergenceData = {
    planId: leg.planId,
    legIndex: leg.legIndex,
    chain: leg.chain as Chain,
    wallet: leg.wallet,
    txId,
    simulationDigest: stored.digest,
    changes,
  };
  const owner = changes.find((change) => change.role === 'owner');
  return {
    events: [{ type: 'plan.divergence', wallet: leg.wallet, payload }],
    note:
      `diverged from its simulation: ` +
      (owner
        ? `the owner's ${owner.asset} moved ${owner.actual}, simulated ${owner.simulated}`
        : `${changes.length} USDC balance(s) moved otherwise`) +
      (owner?.tolerance === undefined
        ? ''
        : leg.action === 'swap' || leg.effect === 'swap'
          ? ` (beyond the slippage bound ${owner.tolerance})`
          : ` (beyond the venue's rounding ${owner.tolerance})`),
  };
}

/** A confirmed outcome that diverged is flagged for review (the books still follow it). */
export function flagDivergence<O extends { readonly status: string }>(
  outcome: O,
  divergence: LegDivergence | undefined,
): O {
  if (!divergence?.note || outcome.status !== 'confirmed') return outcome;
  const reviewReason = (outcome as { readonly reviewReason?: string | null }).reviewReason;
  return {
    ...outcome,
    reviewReason: reviewReason ? `${reviewReason}; ${divergence.note}` : divergence.note,
  };
}
