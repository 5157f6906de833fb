import {
  findBridgeTransfer,
  findPlan,
  recordBridgeDelivery,
  recordMintSimulation,
} from '@yieldrouter/ledger';
import type { BridgeTransferRow, Books } from '@yieldrouter/ledger';
import type { Chain, PlanSimulation, UnsignedLeg } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { legDocument } from '../plan/legDocument';
import type { BridgeRail } from './bridgeRail';
import { markBridgeFailed } from './markBridgeFailed';
import { mintDivergence, simulateMintLeg } from './mintSimulation';
import type { MintSimulationAdapters } from './mintSimulation';

export interface ConfirmBridgeDeliveryParameters {
  readonly db: Books;
  readonly rail: BridgeRail | undefined;
  /**
   * The destination chains' adapters: the mint leg is simulated there when served, and the
   * delivering transaction compared with it (issue 44). A chain without: `unavailable`.
   */
  readonly adapters: MintSimulationAdapters;
  readonly planId: string;
  /** The destination transaction that minted; absent: what the bridge waits for next. */
  readonly destTxId?: string | undefined;
  /** The caller's wallet scope: a plan of another wallet is 403 WALLET_SCOPE. */
  readonly allowWallet?: (wallet: string) => boolean;
  readonly now: Date;
}

const notDeliverable = (message: string) =>
  new EngineError('BRIDGE_NOT_DELIVERABLE', message, 'body.planId');
const mismatch = (reason: string) =>
  new EngineError(
    'RECEIPT_MISMATCH',
    `body.destTxId: ${reason}; nothing was credited`,
    'body.destTxId',
  );

function stateOf(transfer: BridgeTransferRow) {
  const status =
    transfer.deliveredAt !== null
      ? 'delivered'
      : transfer.burnStatus === 'failed' || transfer.failedAt !== null
        ? 'failed'
        : transfer.burnedMicros !== null
          ? 'in_flight'
          : 'awaiting_burn';
  return {
    planId: transfer.planId,
    rail: transfer.rail,
    sourceChain: transfer.sourceChain,
    destChain: transfer.destChain,
    recipient: transfer.recipient,
    bridgeStatus: status,
    burnTxId: transfer.burnTxId,
    burnedMicros: transfer.burnedMicros === null ? null : formatMicros(transfer.burnedMicros),
    minReceivedMicros: formatMicros(transfer.minReceivedMicros),
    destTxId: transfer.mintTxId,
    deliveredMicros:
      transfer.deliveredMicros === null ? null : formatMicros(transfer.deliveredMicros),
    ...(transfer.failureReason !== null ? { failureReason: transfer.failureReason } : {}),
  };
}

/**
 * A transaction id as stored and compared: an EVM hash (0x hex) in lower case; a Solana
 * signature or a Sui digest (base58, where case is part of the id) as given.
 */
const txIdKey = (txId: string) => (/^0x[0-9a-fA-F]+$/.test(txId) ? txId.toLowerCase() : txId);

/**
 * POST /svc/bridge/delivery. Without `destTxId`: where the bridge stands and, once the burn has
 * settled and the attestation exists, the mint leg for the owner to sign. With it: reads the
 * attestation and the destination receipt, and only a confirmed mint of this plan's message, to
 * the owner's address, of at least what the burn less the rail's most could leave, credits
 * `liquid` on the destination (the amount the receipt proves) — once; the same report again is a
 * replay. A burn not settled, an attestation still pending, another plan's or a delivered plan's
 * mint are refused with nothing credited.
 */
export async function confirmBridgeDelivery(parameters: ConfirmBridgeDeliveryParameters) {
  const { db, rail, planId, destTxId, now } = parameters;
  const transfer = await findBridgeTransfer(db, planId);
  if (!transfer) {
    throw new EngineError('PLAN_NOT_FOUND', `no prepared bridge plan ${planId}`, 'body.planId');
  }
  if (parameters.allowWallet && !parameters.allowWallet(transfer.owner)) {
    throw new EngineError('WALLET_SCOPE', `${planId} belongs to another wallet`, 'body.planId');
  }
  if (transfer.mintTxId !== null) {
    if (destTxId === undefined || txIdKey(destTxId) === txIdKey(transfer.mintTxId)) {
      return { ...stateOf(transfer), credited: false, replay: destTxId !== undefined };
    }
    throw notDeliverable(`${planId} was delivered by ${transfer.mintTxId} already`);
  }
  if (transfer.burnedMicros === null || transfer.burnTxId === null) {
    throw notDeliverable(`the burn of ${planId} has not settled yet (${transfer.burnStatus})`);
  }
  if (!rail) throw new EngineError('SERVICE_UNAVAILABLE', 'no bridge rail is configured');
  const lane = {
    sourceChain: transfer.sourceChain as Chain,
    destChain: transfer.destChain as Chain,
  };
  const attestation = await rail.readAttestation(lane, transfer.burnTxId);
  if (attestation.status === 'unavailable') {
    throw new EngineError('SERVICE_UNAVAILABLE', `attestation: ${attestation.detail}; try again`);
  }
  if (attestation.status === 'pending') {
    if (destTxId === undefined) return { ...stateOf(transfer), attestation: 'pending' as const };
    throw notDeliverable(
      `the burn is not attested yet (${attestation.detail}); nothing was credited`,
    );
  }
  if (destTxId === undefined) {
    const built = await rail.buildMint({
      planId,
      lane,
      owner: transfer.recipient,
      amountMicros: transfer.burnedMicros - transfer.maxRailFeeMicros,
      message: attestation.message,
      attestation: attestation.attestation,
    });
    const mint = built.status === 'prepared' ? built.legs[0] : undefined;
    if (!mint) {
      const why = built.status === 'blocked' ? built.blockers.map((b) => b.message) : [];
      throw new EngineError('SERVICE_UNAVAILABLE', `mint leg: ${why.join('; ')}; try again`);
    }
    const served = await simulateServedMint(parameters, transfer, mint);
    return {
      ...stateOf(transfer),
      attestation: 'complete' as const,
      mintLeg: legDocument(mint, served.index),
      mintSimulation: served.simulation,
    };
  }
  const minted = await rail.readMint({
    lane,
    txId: destTxId,
    nonce: attestation.nonce,
    recipient: transfer.recipient,
  });
  switch (minted.status) {
    case 'unavailable':
      throw new EngineError(
        'SERVICE_UNAVAILABLE',
        `${lane.destChain}: ${minted.detail}; try again`,
      );
    case 'pending':
      throw notDeliverable(`${destTxId} is not mined on ${lane.destChain} yet; report it again`);
    case 'mismatch':
      throw mismatch(minted.reason);
    case 'failed': {
      // A reverted mint consumed nothing (the message is still unused): the bridge is failed and
      // rescuable, the amount stays in flight for the owner.
      await markBridgeFailed(
        db,
        planId,
        `mint_failed: ${destTxId} on ${lane.destChain} ${minted.reason}`,
        now,
      );
      throw mismatch(`${minted.reason}; the bridge is marked failed: rescue it`);
    }
    case 'confirmed':
      break;
  }
  const least = transfer.burnedMicros - transfer.maxRailFeeMicros;
  if (minted.amountMicros < least || minted.amountMicros > transfer.burnedMicros) {
    throw mismatch(
      `the mint credited ${formatMicros(minted.amountMicros)} micros; the burn allows ${formatMicros(least)}..${formatMicros(transfer.burnedMicros)}`,
    );
  }
  // Issue 44: what the mint moved, compared with the mint leg's simulation as served (a
  // difference recorded before the delivery is booked, its event written with it).
  const events = await mintDivergence(
    {
      db,
      adapters: parameters.adapters,
      planId,
      chain: lane.destChain,
      recipient: transfer.recipient,
      txId: txIdKey(destTxId),
      now,
    },
    transfer.mintSimulation,
  );
  const recorded = await recordBridgeDelivery(db, {
    planId,
    mintTxId: txIdKey(destTxId),
    messageNonce: attestation.nonce,
    deliveredMicros: minted.amountMicros,
    events,
    now,
  });
  if (recorded.status === 'refused') throw notDeliverable(recorded.reason);
  return { ...stateOf(recorded.transfer), credited: !recorded.replay, replay: recorded.replay };
}

/**
 * The mint leg served, simulated on the destination and kept with the transfer for the
 * delivery's comparison: the last one served (a Solana leg's blockhash differs per answer),
 * `unavailable` included (then nothing is compared). Its index is the one after the plan's legs
 * (the leg document's, the simulation's and a divergence's).
 */
export async function simulateServedMint(
  parameters: Pick<ConfirmBridgeDeliveryParameters, 'db' | 'adapters' | 'planId'>,
  transfer: BridgeTransferRow,
  mint: UnsignedLeg,
): Promise<{ readonly index: number; readonly simulation: PlanSimulation }> {
  const plan = await findPlan(parameters.db, parameters.planId);
  const index = plan?.legs.length ?? transfer.burnLegIndex + 1;
  const burned = transfer.burnedMicros ?? transfer.burnMicros;
  const simulation = await simulateMintLeg({
    adapters: parameters.adapters,
    planId: parameters.planId,
    chain: transfer.destChain as Chain,
    index,
    recipient: transfer.recipient,
    leg: mint,
    least: burned - transfer.maxRailFeeMicros,
    most: burned,
  });
  await recordMintSimulation(parameters.db, parameters.planId, simulation);
  return { index, simulation };
}
