import { BOOKS_ASSET, assetOfAccount } from '@yieldrouter/ledger';
import type {
  BalanceGuard,
  LedgerChain,
  Books,
  LegStatus,
  OutboxEventInput,
  PostingInput,
  SettlementLeg,
  TxClaim,
} from '@yieldrouter/ledger';
import type {
  AutoPayPaidData,
  Chain,
  DepositSettledData,
  PositionUpdatedData,
  SettleLegResult,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { CarriedRecord } from '../carriedRecord';
import { finalResult, settleResult } from './settleResult';
import type { PositionNext } from './settlementPostings';

/** What an outcome was computed from, and what it hands back to an auto-pay pool (0041). */
interface OutcomeGuards {
  /** The balances it was computed from: read again under the booking's locks (stale if moved). */
  readonly guards?: readonly BalanceGuard[];
  /** Auto-pay transfer legs: the share the pool un-commits as returned (negative: takes back). */
  readonly autoPayReturnMicros?: bigint;
}

/** What happens to a leg, with what it posts. */
export type LegOutcome = OutcomeGuards &
  (
    | {
        readonly status: 'confirmed';
        readonly amountMicros: bigint;
        readonly shares: bigint | null;
        /** What the receipt shows the treasury received in the leg's own transaction. */
        readonly skimMicros?: bigint;
        readonly reviewReason: string | null;
        readonly postings: readonly PostingInput[];
        readonly position: PositionNext | null;
      }
    | {
        readonly status: 'failed' | 'expired' | 'cancelled';
        readonly reason: string;
        readonly postings: readonly PostingInput[];
        readonly position: null;
      }
  );

/**
 * The events of an outcome, typed by their webhook payload schemas: a confirmed leg reports
 * `deposit.settled` / `withdraw.settled` and `position.updated`; a leg that fails, expires or is
 * cancelled reports `position.updated` when its reservation went back (nothing otherwise).
 */
function events(
  leg: SettlementLeg,
  outcome: LegOutcome,
  txId: string | null,
  payee: PayoutPayee | undefined,
): OutboxEventInput[] {
  const wallet = leg.wallet as string;
  const chain = leg.chain as Chain;
  const base = { planId: leg.planId, legIndex: leg.legIndex, chain, wallet, txId };
  const updated: PositionUpdatedData = {
    ...base,
    cause: outcome.status === 'confirmed' ? 'settled' : 'released',
    harvestId: null,
  };
  const position: OutboxEventInput = { type: 'position.updated', wallet, payload: updated };
  // A swap happens in the owner's wallet and the catalog has no swap event yet (its activity row
  // and the plan carry the outcome); the position moves when the swap moved liquid USDC.
  if (leg.effect === 'swap' || leg.effect === 'unwrap' || leg.effect === 'wrap') {
    const movesUsdc = outcome.postings.some(
      (posting) => 'wallet' in posting.account && assetOfAccount(posting.account) === BOOKS_ASSET,
    );
    return movesUsdc ? [position] : [];
  }
  // A settled burn puts the amount in flight: the position changes, no deposit settled.
  if (leg.effect === 'bridge_burn') return outcome.postings.length > 0 ? [position] : [];
  // The service's bridge fee leaves the owner's wallet for fees:protocol: no position moves.
  if (leg.effect === 'bridge_fee') return [];
  if (outcome.status !== 'confirmed') {
    return outcome.postings.length > 0 ? [position] : [];
  }
  if (leg.effect === 'pay_out' && payee) {
    const paid: AutoPayPaidData = {
      ...base,
      txId: txId as string,
      opportunityId: payee.opportunityId,
      payeeId: payee.payeeId,
      payee: payee.address,
      quotedAmountMicros: formatMicros(leg.amountMicros),
      amountMicros: formatMicros(outcome.amountMicros),
    };
    return [{ type: 'auto_pay.paid', wallet, payload: paid }, position];
  }
  const withdrawal = ['unstake', 'unstake_yield', 'exit_liquid', 'rebalance_out'].includes(
    leg.effect,
  );
  const settled: DepositSettledData = {
    ...base,
    txId: txId as string,
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

/** The payee an auto-pay transfer leg pays (its `auto_pay.paid` event names it). */
export interface PayoutPayee {
  readonly payeeId: string;
  readonly address: string;
  /** The position whose yield the run paid. */
  readonly opportunityId: string;
}

export interface RecordLegOutcomeOptions {
  /** The transaction the outcome is for; null for an unsigned leg expired or cancelled. */
  readonly txId: string | null;
  /** The statuses the outcome was computed from. */
  readonly expect: readonly LegStatus[];
  /** Another open leg holding `txId`, which the receipt proved is not its own. */
  readonly takeover?: TxClaim;
  /** The settle call's audit rows, written with the outcome (and only if it is written). */
  readonly audit?: CarriedRecord<SettleLegResult> | undefined;
  /** Auto-pay transfer legs: the payee paid. */
  readonly payee?: PayoutPayee | undefined;
  /** Events written with the outcome besides its own (a `plan.divergence`, issue 44). */
  readonly extraEvents?: readonly OutboxEventInput[] | undefined;
}

export type RecordedLegOutcome =
  { readonly stale: false; readonly result: SettleLegResult } | { readonly stale: true };

/** What the call answers when the outcome is written (the leg as the statement leaves it). */
function writtenResult(
  leg: SettlementLeg,
  outcome: LegOutcome,
  txId: string | null,
): SettleLegResult {
  const confirmed = outcome.status === 'confirmed';
  return settleResult(
    {
      ...leg,
      status: outcome.status,
      txId: txId ?? leg.txId,
      settledAmountMicros: confirmed ? outcome.amountMicros : null,
      failureReason: confirmed ? null : outcome.reason,
      reviewReason: confirmed ? outcome.reviewReason : null,
    },
    false,
  );
}

/**
 * Records an outcome in one statement (the books' `settlements.record`: grouped with concurrent
 * settlements on the open books, alone in a transaction's books): under the leg's lock (and its position's) the database posts the entry, updates
 * the leg and the position and writes the events (and the call's audit rows), unless the leg is
 * no longer in `expect` or the position moved (`stale`: the caller reads again), or a
 * concurrent settlement made the leg final first (reported: a replay, or a conflict; the
 * caller records that call itself).
 */
export async function recordLegOutcome(
  parameters: { readonly db: Pick<Books, 'settlements'>; readonly now: Date },
  leg: SettlementLeg,
  outcome: LegOutcome,
  options: RecordLegOutcomeOptions,
): Promise<RecordedLegOutcome> {
  const { txId } = options;
  const settles = outcome.status === 'confirmed';
  const position = outcome.position && leg.position;
  const state = await parameters.db.settlements.record({
    planId: leg.planId,
    legIndex: leg.legIndex,
    txId,
    outcome:
      outcome.status === 'confirmed'
        ? {
            status: 'confirmed',
            settledAmountMicros: outcome.amountMicros,
            shares: outcome.shares,
            ...(outcome.skimMicros === undefined ? {} : { skimMicros: outcome.skimMicros }),
            reviewReason: outcome.reviewReason,
          }
        : { status: outcome.status, reason: outcome.reason },
    expect: options.expect,
    releases: outcome.status === 'expired' || outcome.status === 'cancelled',
    ...(options.takeover ? { takeover: options.takeover } : {}),
    ...(outcome.position && position
      ? {
          position: {
            wallet: leg.wallet as string,
            chain: leg.chain,
            opportunityId: leg.opportunityId as string,
            venueId: leg.venueId as string,
            version: position.version,
            shares: outcome.position.shares,
            markMicros: outcome.position.markMicros,
            feesRetainedMicros: outcome.position.feesRetainedMicros,
          },
        }
      : {}),
    ...(outcome.postings.length > 0
      ? {
          entry: {
            kind: `${leg.planKind}.${settles ? 'settled' : 'released'}`,
            dedupeKey: `${settles ? 'settle' : 'release'}:${leg.planId}:${leg.legIndex}`,
            planId: leg.planId,
            legIndex: leg.legIndex,
            ...(txId ? { txId } : {}),
            memo:
              outcome.status === 'confirmed'
                ? (outcome.reviewReason ?? 'settled from its receipt')
                : outcome.reason,
            postings: outcome.postings,
          },
        }
      : {}),
    ...(outcome.guards && outcome.guards.length > 0 ? { guards: outcome.guards } : {}),
    ...(outcome.autoPayReturnMicros ? { autoPayReturnMicros: outcome.autoPayReturnMicros } : {}),
    ...((leg.effect === 'pay_out' || leg.effect === 'unstake_yield') && leg.wallet
      ? { autoPaySweep: { wallet: leg.wallet, chain: leg.chain as LedgerChain } }
      : {}),
    events: [...events(leg, outcome, txId, options.payee), ...(options.extraEvents ?? [])],
    ...(options.audit ? { audit: options.audit.rows(writtenResult(leg, outcome, txId)) } : {}),
    now: parameters.now,
  });
  if (state.stale) return { stale: true };
  if (!state.final) options.audit?.committed();
  const recorded = {
    ...leg,
    status: state.status,
    txId: state.txId,
    settledAmountMicros: state.settledAmountMicros,
    failureReason: state.failureReason,
    reviewReason: outcome.status === 'confirmed' ? outcome.reviewReason : null,
  };
  if (state.final) {
    return {
      stale: false,
      result: (txId && finalResult(recorded, txId)) || settleResult(recorded, true),
    };
  }
  return { stale: false, result: settleResult(recorded, false) };
}
