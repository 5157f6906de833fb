import { LedgerError, findLegByTx, findSettlementLeg, markLegSubmitted } from '@yieldrouter/ledger';
import type {
  AccountRef,
  LedgerChain,
  LegSettlements,
  LegToSettle,
  OutboxEventInput,
  PostingInput,
  PrismaClient,
  SettlementLeg,
} from '@yieldrouter/ledger';
import type {
  Chain,
  DepositSettledData,
  LegTarget,
  PositionUpdatedData,
  SettleLegResult,
  VenueStandard,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import type { VenueConfig } from '../venues/venueConfig';
import { venueOnChain } from '../venues/venueConfig';

export interface SettleLegParameters {
  readonly db: PrismaClient;
  /** The leg reads and outcome writes, grouped with concurrent settlements (`Database`). */
  readonly settlements: LegSettlements;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly planId: string;
  readonly legIndex: number;
  readonly txId: string;
  /** The caller's wallet scope: a leg of another wallet is 403 WALLET_SCOPE. */
  readonly allowWallet?: (wallet: string) => boolean;
  readonly now: Date;
}

type Outcome =
  | { readonly kind: 'confirmed'; readonly amountMicros: bigint }
  | { readonly kind: 'failed'; readonly reason: string };

/** The leg's target as the adapter knows it (the router, or the venue with its on-chain ids). */
function targetOf(leg: SettlementLeg, venues: VenueConfig): LegTarget {
  if (!leg.venueId) return { kind: 'router' };
  return {
    kind: 'venue',
    venue: venueOnChain(venues, {
      venueId: leg.venueId,
      chain: leg.chain as Chain,
      standard: leg.standard as VenueStandard,
    }),
  };
}

const wallet = (
  leg: SettlementLeg,
  bucket: 'liquid' | 'pending_in' | 'pending_out',
): AccountRef => ({
  wallet: leg.wallet as string,
  chain: leg.chain as LedgerChain,
  bucket,
});
const staked = (leg: SettlementLeg): AccountRef => ({
  wallet: leg.wallet as string,
  chain: leg.chain as LedgerChain,
  bucket: `staked:${leg.opportunityId}`,
});
const external = (leg: SettlementLeg): AccountRef => ({
  system: 'external',
  chain: leg.chain as LedgerChain,
});
const move = (from: AccountRef, to: AccountRef, amount: bigint): PostingInput[] => [
  { account: from, amountMicros: -amount },
  { account: to, amountMicros: amount },
];

/** What a confirmed leg posts (DESIGN §3; effects in migration 0005). */
function settledPostings(leg: SettlementLeg, amount: bigint): PostingInput[] {
  switch (leg.effect) {
    case 'fund_liquid':
      return move(wallet(leg, 'pending_in'), wallet(leg, 'liquid'), amount);
    case 'fund_staked':
      return move(wallet(leg, 'pending_in'), staked(leg), amount);
    case 'stake':
      return move(external(leg), staked(leg), amount);
    case 'unstake':
      return move(staked(leg), external(leg), amount);
    case 'exit_liquid':
      return move(wallet(leg, 'pending_out'), external(leg), amount);
    case 'none':
      throw new Error('a leg without effect never settles');
  }
}

/** What a failed leg posts: the pending amount goes back where it came from. */
function releasePostings(leg: SettlementLeg): PostingInput[] {
  switch (leg.effect) {
    case 'fund_liquid':
    case 'fund_staked':
      return move(wallet(leg, 'pending_in'), external(leg), leg.amountMicros);
    case 'exit_liquid':
      return move(wallet(leg, 'pending_out'), wallet(leg, 'liquid'), leg.amountMicros);
    default:
      return [];
  }
}

/**
 * The events of a final outcome, typed by their webhook payload schemas (`moved`: the outcome
 * posts something; a failed leg that reserved nothing reports nothing).
 */
function events(
  leg: SettlementLeg,
  outcome: Outcome,
  txId: string,
  moved: boolean,
): OutboxEventInput[] {
  const wallet = leg.wallet as string;
  const chain = leg.chain as Chain;
  const base = { planId: leg.planId, legIndex: leg.legIndex, chain, wallet, txId };
  const updated: PositionUpdatedData = {
    ...base,
    cause: outcome.kind === 'confirmed' ? 'settled' : 'released',
    harvestId: null,
  };
  const position: OutboxEventInput = { type: 'position.updated', wallet, payload: updated };
  if (outcome.kind === 'failed') {
    return moved ? [position] : [];
  }
  const withdrawal = leg.effect === 'unstake' || leg.effect === 'exit_liquid';
  const settled: DepositSettledData = {
    ...base,
    opportunityId: leg.opportunityId,
    venueId: leg.venueId,
    quotedAmountMicros: formatMicros(leg.amountMicros),
    amountMicros: formatMicros(outcome.amountMicros),
  };
  return [
    { type: withdrawal ? 'withdraw.settled' : 'deposit.settled', wallet, payload: settled },
    position,
  ];
}

function result(leg: SettlementLeg, replay: boolean): SettleLegResult {
  return {
    planId: leg.planId,
    legIndex: leg.legIndex,
    status: leg.status === 'confirmed' || leg.status === 'failed' ? leg.status : 'pending',
    txId: leg.txId ?? '',
    quotedAmountMicros: formatMicros(leg.amountMicros),
    settledAmountMicros:
      leg.settledAmountMicros === null ? null : formatMicros(leg.settledAmountMicros),
    reason: leg.failureReason,
    replay,
  };
}

/** A leg that is final: a replay for the same txId, a conflict for another; else undefined. */
function finalResult(leg: SettlementLeg, txId: string): SettleLegResult | undefined {
  if (leg.status !== 'confirmed' && leg.status !== 'failed') return undefined;
  if (leg.txId === txId) return result(leg, true);
  throw new EngineError(
    'SETTLEMENT_CONFLICT',
    `body.txId: leg ${leg.legIndex} of ${leg.planId} already ${leg.status} with ${leg.txId ?? 'no transaction'}`,
    'body.txId',
  );
}

async function loadLeg(parameters: SettleLegParameters): Promise<LegToSettle> {
  const found = await parameters.settlements.find({
    planId: parameters.planId,
    legIndex: parameters.legIndex,
    txId: parameters.txId,
  });
  if (!found) {
    throw new EngineError(
      'NOT_FOUND',
      `path.legIndex: plan ${parameters.planId} has no leg ${parameters.legIndex}`,
      'path.legIndex',
    );
  }
  const { leg } = found;
  if (leg.wallet && parameters.allowWallet && !parameters.allowWallet(leg.wallet)) {
    throw new EngineError(
      'WALLET_SCOPE',
      `path.planId: plan ${leg.planId} belongs to a wallet this key is not allowed for`,
      'path.planId',
    );
  }
  if (leg.effect === 'none' || !leg.wallet || !leg.owner) {
    throw new EngineError(
      'BAD_REQUEST',
      `path.legIndex: leg ${leg.legIndex} (${leg.action}) moves no money; settle the plan's settling leg`,
      'path.legIndex',
    );
  }
  return found;
}

function assertTxFree(
  leg: SettlementLeg,
  txId: string,
  owner?: { planId: string; legIndex: number },
) {
  if (owner && (owner.planId !== leg.planId || owner.legIndex !== leg.legIndex)) {
    throw new EngineError(
      'SETTLEMENT_CONFLICT',
      `body.txId: ${txId} already settles plan ${owner.planId} leg ${owner.legIndex}`,
      'body.txId',
    );
  }
}

/**
 * Records what the chain says about a leg's transaction: the receipt is read through the chain
 * adapter (never a client-supplied amount) and, when final, the ledger moves in one transaction
 * with the leg update and the outbox events.
 * - confirmed for this plan with exactly the quoted amount → the leg's effect is posted
 *   (pending_in → liquid or staked, external → staked, staked → external, pending_out → external);
 *   `deposit.settled` / `withdraw.settled` and `position.updated` are written to the outbox;
 * - failed, reverted, another plan, another amount → the leg is failed with the reason, nothing
 *   is credited and a reservation goes back (pending_in → external, pending_out → liquid);
 * - not final yet → the txId is recorded on the leg (the keeper keeps watching); nothing moves.
 * Idempotent: the same leg and txId again is a replay; another txId for a settled leg, or a txId
 * that settled another leg, is 409 SETTLEMENT_CONFLICT. A chain that cannot be read is 503.
 */
export async function settleLeg(parameters: SettleLegParameters): Promise<SettleLegResult> {
  const { db, adapters, txId, now } = parameters;
  const { leg, txClaim } = await loadLeg(parameters);
  const settled = finalResult(leg, txId);
  if (settled) return settled;
  assertTxFree(leg, txId, txClaim);

  const receipt = await adapters[leg.chain as Chain].readReceipt({
    txId,
    planId: leg.planId,
    owner: leg.owner as string,
    action: leg.action === 'withdraw' ? 'withdraw' : 'deposit',
    target: targetOf(leg, parameters.venues),
  });
  if (receipt.status === 'unavailable') {
    throw new EngineError('SERVICE_UNAVAILABLE', `${leg.chain}: ${receipt.detail}; try again`);
  }
  if (receipt.status === 'pending') {
    await recordPending(db, leg, txId, now);
    return result({ ...leg, status: 'submitted', txId }, false);
  }
  let outcome: Outcome;
  if (receipt.status === 'failed' || receipt.status === 'mismatch') {
    outcome = { kind: 'failed', reason: `${receipt.status}: ${receipt.reason}` };
  } else if (receipt.planId !== leg.planId) {
    outcome = { kind: 'failed', reason: `mismatch: the transaction carries ${receipt.planId}` };
  } else if (receipt.amountMicros !== leg.amountMicros) {
    outcome = {
      kind: 'failed',
      reason: `mismatch: the chain moved ${receipt.amountMicros} micros; the plan quoted ${leg.amountMicros}`,
    };
  } else {
    outcome = { kind: 'confirmed', amountMicros: receipt.amountMicros };
  }
  try {
    return await record(parameters, outcome, leg);
  } catch (error) {
    // Money the ledger does not hold for this wallet (an unstake larger than the recorded
    // position): the chain moved it, but it cannot move our books; the leg fails with the reason.
    if (!(error instanceof LedgerError) || error.code !== 'INSUFFICIENT_BALANCE') throw error;
    return record(parameters, { kind: 'failed', reason: `ledger: ${error.message}` }, leg);
  }
}

async function recordPending(db: PrismaClient, leg: SettlementLeg, txId: string, now: Date) {
  try {
    await markLegSubmitted(db, { planId: leg.planId, legIndex: leg.legIndex, txId, now });
  } catch (error) {
    // The unique index on tx_id: a concurrent settlement claimed this txId for another leg.
    assertTxFree(leg, txId, await findLegByTx(db, txId));
    throw error;
  }
}

/** The leg and transaction a final outcome is recorded for. */
type RecordParameters = Pick<
  SettleLegParameters,
  'settlements' | 'planId' | 'legIndex' | 'txId' | 'now'
>;

export interface AbandonPendingLegParameters
  extends RecordParameters, Pick<SettleLegParameters, 'db'> {
  /** Why the service stops waiting (stored as the leg's failure reason). */
  readonly reason: string;
}

/**
 * Gives up on a leg whose transaction the chain still reports as pending long after it was
 * submitted (the keeper's settlement watch, past its window): the leg fails through the same
 * path as a failed receipt, so a reservation goes back (pending_in → external, pending_out →
 * liquid) and `position.updated` is written. A leg already final is reported as it stands.
 */
export async function abandonPendingLeg(
  parameters: AbandonPendingLegParameters,
): Promise<SettleLegResult> {
  const leg = await findSettlementLeg(parameters.db, parameters.planId, parameters.legIndex);
  if (!leg) {
    throw new EngineError(
      'NOT_FOUND',
      `plan ${parameters.planId} has no leg ${parameters.legIndex}`,
      'path.legIndex',
    );
  }
  return record(parameters, { kind: 'failed', reason: `expired: ${parameters.reason}` }, leg);
}

/**
 * Records a final outcome in one statement (ledger `LegSettlements.record`, grouped with
 * concurrent settlements): the postings and events are decided here from the leg's fixed fields
 * (effect, amount, wallet, venue); under the leg's lock the database posts them, updates the leg
 * and writes the events, unless a concurrent settlement made the leg final first — then that is
 * reported (a replay, or a conflict).
 */
async function record(
  parameters: RecordParameters,
  outcome: Outcome,
  leg: SettlementLeg,
): Promise<SettleLegResult> {
  const { txId, now } = parameters;
  const postings =
    outcome.kind === 'confirmed'
      ? settledPostings(leg, outcome.amountMicros)
      : releasePostings(leg);
  const state = await parameters.settlements.record({
    planId: leg.planId,
    legIndex: leg.legIndex,
    txId,
    outcome:
      outcome.kind === 'confirmed'
        ? { status: 'confirmed', settledAmountMicros: outcome.amountMicros }
        : { status: 'failed', reason: outcome.reason },
    ...(postings.length > 0
      ? {
          entry: {
            kind:
              outcome.kind === 'confirmed' ? `${leg.planKind}.settled` : `${leg.planKind}.released`,
            dedupeKey: `settle:${leg.planId}:${leg.legIndex}`,
            planId: leg.planId,
            legIndex: leg.legIndex,
            txId,
            ...(outcome.kind === 'failed' ? { memo: outcome.reason } : {}),
            postings,
          },
        }
      : {}),
    events: events(leg, outcome, txId, postings.length > 0),
    now,
  });
  const recorded = {
    ...leg,
    status: state.status,
    txId: state.txId,
    settledAmountMicros: state.settledAmountMicros,
    failureReason: state.failureReason,
  };
  if (state.final) return finalResult(recorded, txId) ?? result(recorded, true);
  return result(recorded, false);
}
