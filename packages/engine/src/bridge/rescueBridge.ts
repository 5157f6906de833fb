import { findBridgeTransfer } from '@yieldrouter/ledger';
import type { BridgeTransferRow, Books } from '@yieldrouter/ledger';
import type { BridgeRescueDocument, BridgeRescueRequest, Chain } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { blocker } from '../plan/blocker';
import { legDocument } from '../plan/legDocument';
import type { BridgeRail } from './bridgeRail';
import { simulateServedMint } from './confirmBridgeDelivery';
import type { MintSimulationAdapters } from './mintSimulation';

export interface RescueBridgeParameters {
  readonly db: Books;
  readonly rail: BridgeRail | undefined;
  /** The destination chains' adapters: the mint leg is simulated there (issue 44). */
  readonly adapters: MintSimulationAdapters;
  readonly request: BridgeRescueRequest;
  /** The caller's wallet scope: a plan of another wallet is 403 WALLET_SCOPE. */
  readonly allowWallet?: (wallet: string) => boolean;
}

const LOCKED_FIELDS = ['destinationAddress', 'recipient', 'mintRecipient'] as const;

/** Hex addresses (EVM, Sui) compare case-insensitively; others (Solana) exactly. */
const sameAddress = (a: string, b: string) =>
  a === b || (/^0x[0-9a-f]+$/i.test(a) && a.toLowerCase() === b.toLowerCase());

function notFailed(transfer: BridgeTransferRow): EngineError {
  const why =
    transfer.mintTxId !== null
      ? `it was delivered by ${transfer.mintTxId}`
      : transfer.burnStatus === 'failed'
        ? 'its burn reverted: nothing left the wallet and nothing is in flight'
        : transfer.burnedMicros === null
          ? `its burn has not settled (${transfer.burnStatus})`
          : "it is in flight within its rail's attestation window";
  return new EngineError(
    'BRIDGE_NOT_FAILED',
    `${transfer.planId} is not a failed bridge: ${why}; nothing was prepared`,
    'body.planId',
  );
}

/**
 * POST /svc/bridge/rescue: the recovery of a failed bridge, paid to the owner only. The
 * destination is the recipient the plan recorded (the burn fixed it as the CCTP mintRecipient),
 * never the request's: a body naming another one is refused 400 RESCUE_DESTINATION_LOCKED. Only a
 * `failed` bridge (attestation window expired, or its mint reverted) is rescued (else 409
 * BRIDGE_NOT_FAILED). For CCTP the recovery is the mint: the attestation is read now and, once it
 * exists, the `receiveMessage` leg on the destination is prepared; still missing, the rescue is
 * blocked `bridge_attestation_pending` (the amount stays in flight). Nothing is stored or
 * credited here: the signed mint's confirmed receipt credits through the delivery, once.
 */
export async function rescueBridge(
  parameters: RescueBridgeParameters,
): Promise<BridgeRescueDocument> {
  const { db, rail, request } = parameters;
  const planId = request.planId;
  const transfer = await findBridgeTransfer(db, planId);
  if (!transfer) {
    throw new EngineError('PLAN_NOT_FOUND', `no prepared bridge plan ${planId}`, 'body.planId');
  }
  if (parameters.allowWallet && !parameters.allowWallet(transfer.owner)) {
    throw new EngineError('WALLET_SCOPE', `${planId} belongs to another wallet`, 'body.planId');
  }
  for (const field of LOCKED_FIELDS) {
    const named = request[field];
    if (named !== undefined && !sameAddress(named.trim(), transfer.recipient)) {
      throw new EngineError(
        'RESCUE_DESTINATION_LOCKED',
        `body.${field}: a rescue pays only the owner's address the plan recorded ` +
          `(${transfer.recipient} on ${transfer.destChain}); nothing was prepared`,
        `body.${field}`,
      );
    }
  }
  if (transfer.mintTxId !== null || transfer.failedAt === null || transfer.failureReason === null) {
    throw notFailed(transfer);
  }
  const burned = transfer.burnedMicros;
  const burnTxId = transfer.burnTxId;
  if (burned === null || burnTxId === null) throw notFailed(transfer);
  if (!rail) throw new EngineError('SERVICE_UNAVAILABLE', 'no bridge rail is configured');
  const lane = {
    sourceChain: transfer.sourceChain as Chain,
    destChain: transfer.destChain as Chain,
  };
  const base = {
    planId,
    kind: 'bridge',
    submitted: false,
    ownerMustSign: true,
    // The service's fee was paid with the plan; the rescue adds none.
    feeMicros: '0',
    chain: lane.destChain,
    amountMicros: formatMicros(burned),
    owner: transfer.owner,
    bridgeStatus: 'failed' as const,
    rail: transfer.rail,
    sourceChain: lane.sourceChain,
    destChain: lane.destChain,
    recipient: transfer.recipient,
    inFlightMicros: formatMicros(burned),
    burnTxId,
    failedAt: transfer.failedAt.toISOString(),
    failureReason: transfer.failureReason,
  };
  const attestation = await rail.readAttestation(lane, burnTxId);
  if (attestation.status !== 'complete') {
    return {
      ...base,
      status: 'blocked',
      blockers: [
        blocker('bridge_attestation_pending', {
          field: 'body.planId',
          details: { burnTxId, detail: attestation.detail },
        }),
      ],
      next: 'Ask again once the attestation exists; the amount stays in flight for the owner.',
    };
  }
  const mint = await rail.buildMint({
    planId,
    lane,
    owner: transfer.recipient,
    amountMicros: burned - transfer.maxRailFeeMicros,
    message: attestation.message,
    attestation: attestation.attestation,
  });
  if (mint.status === 'blocked') {
    return {
      ...base,
      status: 'blocked',
      blockers: [...mint.blockers],
      next: 'The mint cannot be prepared as configured; the amount stays in flight for the owner.',
    };
  }
  const [leg] = mint.legs;
  if (!leg) throw new EngineError('SERVICE_UNAVAILABLE', 'mint leg: none was built; try again');
  // Issue 44: the mint simulated on the destination, kept for the delivery's comparison.
  const served = await simulateServedMint(
    { db, adapters: parameters.adapters, planId },
    transfer,
    leg,
  );
  return {
    ...base,
    status: 'prepared',
    legs: [legDocument(leg, served.index)],
    simulation: served.simulation,
    next:
      `Sign and submit the mint leg on ${lane.destChain} (anyone may relay it; it mints only to ` +
      `${transfer.recipient}), then POST /api/v1/svc/bridge/delivery {planId, destTxId}: its ` +
      'confirmed receipt credits liquid there, once.',
  };
}
