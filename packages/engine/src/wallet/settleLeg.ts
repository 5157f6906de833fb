import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import {
  LedgerError,
  OPEN_LEG_STATUSES,
  RELEASED_LEG_STATUSES,
  dropLegTx,
  findBridgeTransfer,
  insertAuditEvents,
  markLegSubmitted,
  markReleasedLegTx,
  readAccountBalance,
} from '@yieldrouter/ledger';
import type { LedgerChain, Books, SettlementLeg, TxClaim } from '@yieldrouter/ledger';
import type { Chain, SettleLegResult } from '@yieldrouter/schemas';
import type { CarriedRecord } from '../carriedRecord';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
import type { VenueConfig } from '../venues/venueConfig';
import { conflict, loadLeg, otherClaim, targetOf } from './findLegToSettle';
import { recordLegOutcome } from './recordLegOutcome';
import { finalResult, settleResult } from './settleResult';
import { outcomeOf, swapOutcomeOf, unwrapOutcomeOf } from './legReceiptOutcomes';
import { readUnwrapLegReceipt } from './unwrapLegReceipt';
import { bridgeBurnOutcome, readBridgeBurnLeg } from '../bridge/bridgeBurnLeg';
import { bridgeFeeOutcome, readBridgeFeeLeg } from '../bridge/bridgeFeeLeg';
import type { BridgeRail } from '../bridge/bridgeRail';
import { requireBridgeDelivered } from '../bridge/requireBridgeDelivered';
import { requireSwapSettled } from '../bridge/requireSwapSettled';
import { readSwapLegReceipt } from './swapLegReceipt';
import { readSkimLegReceipt } from './skimBooking';
import { readPayoutLegReceipt } from '../autoPay/readPayoutLegReceipt';
import { flagDivergence, legDivergence } from '../simulation/legDivergence';
import { simulateDeferredLeg } from '../simulation/deferredLeg';

export interface SettleLegParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  /** The bridge rail bridge plans' burn legs settle through; unset: such a leg is 503. */
  readonly bridgeRail?: BridgeRail | undefined;
  readonly planId: string;
  readonly legIndex: number;
  readonly txId: string;
  /** The caller's wallet scope: a leg of another wallet is 403 WALLET_SCOPE. */
  readonly allowWallet?: (wallet: string) => boolean;
  readonly schedule?: FeeSchedule;
  readonly now: Date;
  /**
   * The call's audit rows (the audit trail): written with the change, in the statement that
   * records the outcome (grouped with other requests') or the transaction that records a
   * pending txId. A call that changes nothing (a replay) writes none; its caller records it.
   */
  readonly audit?: CarriedRecord<SettleLegResult> | undefined;
}

/** How many times a settlement reads again when the leg or its position moved meanwhile. */
const ATTEMPTS = 4;

/** The statuses a leg must still be in for an outcome computed from it to be written. */
const expectOf = (leg: SettlementLeg) => (leg.released ? RELEASED_LEG_STATUSES : OPEN_LEG_STATUSES);

/** The wallet's liquid balance in a swap's input asset (0 for a plan without a wallet). */
const inputHeldOf = (parameters: SettleLegParameters, leg: SettlementLeg, asset: string) =>
  leg.wallet
    ? readAccountBalance(parameters.db, {
        wallet: leg.wallet,
        chain: leg.chain as LedgerChain,
        bucket: 'liquid',
        asset,
      })
    : Promise.resolve(0n);

/**
 * The leg as its swap books it: in the plan's wallet, except a cross-chain deposit's swap on
 * its source chain, which happens in the transfer's owner's wallet there (across chain
 * families, another address than the plan's wallet, which is the owner on the destination).
 */
async function swapLegIn(parameters: SettleLegParameters, leg: SettlementLeg) {
  if (!leg.wallet || (leg.planKind !== 'deposit' && leg.planKind !== 'route')) return leg;
  const transfer = await findBridgeTransfer(parameters.db, leg.planId);
  return transfer && transfer.sourceChain === leg.chain ? { ...leg, wallet: transfer.owner } : leg;
}

/** A receipt that is not the leg's: nothing moves; a claim the leg held on it is dropped. */
async function refuseMismatch(
  parameters: SettleLegParameters,
  leg: SettlementLeg,
  reason: string,
): Promise<never> {
  if (leg.txId === parameters.txId) {
    await dropLegTx(parameters.db, { ...parameters, now: parameters.now });
  }
  throw new EngineError(
    'RECEIPT_MISMATCH',
    `body.txId: ${parameters.txId} is not leg ${leg.legIndex} of ${leg.planId}: ${reason}`,
    'body.txId',
  );
}

/** The chain does not show the transaction final yet: the leg holds it (and the keeper watches). */
async function holdPending(
  parameters: SettleLegParameters,
  leg: SettlementLeg,
  claim: TxClaim | undefined,
  attempt: number,
): Promise<SettleLegResult> {
  if (claim) throw conflict(parameters.txId, claim, 'is held, still pending, by');
  const key = { planId: leg.planId, legIndex: leg.legIndex, txId: parameters.txId };
  const status = leg.status === 'unsigned' ? 'submitted' : leg.status;
  const result = settleResult({ ...leg, status, txId: parameters.txId }, false);
  if (leg.txId === null) {
    const { audit } = parameters;
    const marked = await recordedWrite(
      parameters.db,
      (client) =>
        leg.released
          ? markReleasedLegTx(client, { ...key, now: parameters.now })
          : markLegSubmitted(client, { ...key, now: parameters.now }),
      audit &&
        (async (tx, changed) => {
          if (changed) await insertAuditEvents(tx, audit.rows(result));
        }),
    ).catch((error: unknown) => {
      // The unique index on tx_id: a concurrent settlement claimed it for another leg.
      if (!leg.released && error instanceof Error && /unique|P2002|23505/i.test(error.message)) {
        return false;
      }
      throw error;
    });
    if (!marked) return again(parameters, leg, attempt);
    audit?.committed();
  }
  return result;
}

/**
 * Records what the chain says about a leg's transaction. The receipt is read through the chain
 * adapter (never a client-supplied amount) and only a receipt that proves the transaction is
 * the leg's own (plan tag, owner, venue, asset) moves the leg:
 * - confirmed → the amount (and venue shares) the receipt proved are booked: pending_in →
 *   liquid or staked, external → staked, staked → external, pending_out → external; a short or
 *   long fill settles what moved (the rest of a reservation goes back; beyond it comes from the
 *   chain or liquid) and is flagged for review outside the leg's bounds; a venue exit takes its
 *   proportion of the position and books the yield it realised;
 * - failed (the leg's own transaction reverted) → final; the reservation goes back;
 * - not the leg's (another owner, plan, venue; moved nothing the leg expects) → 422
 *   RECEIPT_MISMATCH: nothing is recorded and the txId is not claimed;
 * - not final yet → the txId is recorded on the leg (the keeper keeps watching).
 * An expired or cancelled leg (its reservation went back) settles the same way from where the
 * money went back to. Idempotent: the same leg and txId again is a replay; another txId for a
 * final leg, or a txId another leg settled with, is 409 SETTLEMENT_CONFLICT; a txId another
 * open leg holds is taken from it when the receipt proves it is this leg's. An unreadable chain
 * is 503.
 */
export async function settleLeg(
  parameters: SettleLegParameters,
  attempt = 1,
): Promise<SettleLegResult> {
  const { adapters, txId } = parameters;
  const { leg, txClaim, simulation } = await loadLeg(parameters);
  const settled = finalResult(leg, txId);
  if (settled) {
    // A replay of a confirmed leg runs the leg waiting for it if that did not run yet (the
    // chain could not be read then).
    if (leg.status === 'confirmed') await simulateDeferredLeg(parameters, leg, simulation);
    return settled;
  }
  const claim = otherClaim(leg, txClaim);
  if (claim && (claim.status === 'confirmed' || claim.status === 'failed')) {
    throw conflict(txId, claim, 'already settled');
  }
  // A cross-chain deposit's deposit leg waits for its bridge's delivery (409 before).
  if (leg.effect === 'bridged_stake') await requireBridgeDelivered(parameters.db, leg);
  // Its bridge legs, after a swap into USDC, settle once the swap settled (409 before).
  await requireSwapSettled(parameters.db, leg);

  const swap = leg.effect === 'swap' ? await readSwapLegReceipt(adapters, leg, txId) : undefined;
  const unwrap =
    leg.effect === 'unwrap' || leg.effect === 'wrap'
      ? await readUnwrapLegReceipt(adapters, leg, txId)
      : undefined;
  const payout =
    leg.effect === 'pay_out'
      ? await readPayoutLegReceipt(parameters.db, adapters, leg, txId)
      : undefined;
  const burn =
    leg.effect === 'bridge_burn'
      ? await readBridgeBurnLeg(parameters.db, parameters.bridgeRail, leg, txId)
      : undefined;
  const fee =
    leg.effect === 'bridge_fee'
      ? await readBridgeFeeLeg(parameters.db, adapters, leg, txId)
      : undefined;
  const skim = leg.effect === 'skim' ? await readSkimLegReceipt(adapters, leg, txId) : undefined;
  const receipt =
    swap?.receipt ??
    unwrap?.receipt ??
    payout?.receipt ??
    burn?.receipt ??
    fee ??
    skim ??
    (await adapters[leg.chain as Chain].readReceipt({
      txId,
      planId: leg.planId,
      owner: leg.owner as string,
      action: leg.action === 'withdraw' ? 'withdraw' : 'deposit',
      target: targetOf(leg, parameters.venues),
      // A withdrawal that pays its skim in the same transaction (Sui): the treasury's share.
      ...(leg.skim ? { skimRecipient: leg.skim.recipient } : {}),
    }));
  switch (receipt.status) {
    case 'unavailable':
      throw new EngineError('SERVICE_UNAVAILABLE', `${leg.chain}: ${receipt.detail}; try again`);
    case 'mismatch':
      return refuseMismatch(parameters, leg, receipt.reason);
    case 'pending':
      return holdPending(parameters, leg, claim, attempt);
    case 'confirmed':
      if (receipt.planId !== leg.planId) {
        return refuseMismatch(parameters, leg, `the transaction carries ${receipt.planId}`);
      }
      break;
    case 'failed':
      break;
  }
  if (
    receipt.status === 'confirmed' &&
    (leg.effect === 'unwrap' || leg.effect === 'swap') &&
    leg.pairedLegOpen
  ) {
    // A gas top-up unwraps what its swap leg bought (and a swap from the native token spends
    // what its wrap leg wrapped): booked once that leg is final, so the books hold the wrapped
    // native it takes (the keeper watches the txId meanwhile).
    if (!leg.released) return holdPending(parameters, leg, claim, attempt);
  }
  if (receipt.status === 'confirmed' && leg.effect === 'rebalance_in' && leg.pairedLegOpen) {
    // A rebalance's deposit takes what its withdraw leg put in pending_in: it is booked once
    // that leg is final (the keeper watches the txId meanwhile).
    if (!leg.released) return holdPending(parameters, leg, claim, attempt);
  }
  // What this leg's own plan holds in auto_pay (its withdraw leg's proceeds less its payouts),
  // read again under the booking's locks (a guard): never another run's money.
  if (payout && receipt.status === 'confirmed' && !leg.released && leg.autoPayMicros <= 0n) {
    throw new EngineError(
      'AUTO_PAY_WITHDRAW_NOT_SETTLED',
      `leg ${leg.legIndex} of ${leg.planId} pays from the yield its plan's withdraw leg brings out: settle that leg first`,
    );
  }
  const swapLeg = swap ? await swapLegIn(parameters, leg) : leg;
  const outcome = swap
    ? swapOutcomeOf(swapLeg, receipt, swap, await inputHeldOf(parameters, swapLeg, swap.inputAsset))
    : unwrap
      ? unwrapOutcomeOf(leg, receipt, unwrap, await inputHeldOf(parameters, leg, unwrap.takenAsset))
      : burn
        ? bridgeBurnOutcome(leg, receipt, burn.owner)
        : fee
          ? bridgeFeeOutcome(leg, receipt)
          : outcomeOf(leg, receipt, parameters.schedule ?? defaultFeeSchedule);
  // Issue 44: a confirmed leg is compared with its plan's simulation before it is booked.
  const divergence =
    receipt.status === 'confirmed' ? await legDivergence(parameters, leg, simulation) : undefined;
  let state;
  try {
    state = await recordLegOutcome(parameters, leg, flagDivergence(outcome, divergence), {
      txId,
      expect: expectOf(leg),
      ...(claim ? { takeover: claim } : {}),
      audit: parameters.audit,
      payee: payout?.payee,
      extraEvents: divergence?.events,
    });
  } catch (error) {
    // An overdraft: the books moved under the computation (a concurrent reservation took the
    // liquid an exit's long fill counted on). Read again and compute again.
    if (!(error instanceof LedgerError) || error.code !== 'INSUFFICIENT_BALANCE') throw error;
    state = { stale: true as const };
  }
  if (state.stale) return again(parameters, leg, attempt);
  // Issue 44: a later Solana or Sui leg is simulated on the state this confirmed leg left.
  if (receipt.status === 'confirmed') await simulateDeferredLeg(parameters, leg, simulation);
  return state.result;
}

/** The leg moved while it was settled: read it again, a few times at most. */
function again(
  parameters: SettleLegParameters,
  leg: SettlementLeg,
  attempt: number,
): Promise<SettleLegResult> {
  if (attempt >= ATTEMPTS) {
    throw new EngineError(
      'SERVICE_UNAVAILABLE',
      `leg ${leg.legIndex} of ${leg.planId} kept moving while it settled; try again`,
    );
  }
  return settleLeg(parameters, attempt + 1);
}
