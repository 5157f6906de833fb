import { FeeError, computeBridgeFeeLines, defaultFeeSchedule } from '@yieldrouter/fees';
import type { FeeSchedule } from '@yieldrouter/fees';
import type { BridgeTransferFields, LedgerChain, PlanInput, Books } from '@yieldrouter/ledger';
import type {
  Blocker,
  BridgeLane,
  BridgePlanDocument,
  BridgePlanRequest,
  Chain,
  LegBuild,
} from '@yieldrouter/schemas';
import { formatMicros, formatUnits, newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { blocker } from '../plan/blocker';
import { planDocument, planRecord } from '../plan/planDocument';
import { storePlan } from '../plan/storePlan';
import { withSimulation } from '../simulation/simulatePlan';
import type { BridgeRail, BridgeSpeed } from './bridgeRail';
import type { BridgesConfig } from './cctpSettings';
import { bridgeDisclosure } from './bridgeDisclosure';

export interface PrepareBridgePlanParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly bridges: BridgesConfig;
  /** The rail; undefined when none is configured (every lane is blocked). */
  readonly rail: BridgeRail | undefined;
  readonly request: Omit<BridgePlanRequest, 'amountMicros'> & { readonly amountMicros: bigint };
  readonly schedule?: FeeSchedule;
  readonly now: Date;
  /**
   * Whether the caller's owner key lists both addresses as its wallets: how a destination on
   * another chain family (its own address format) is proven the owner's. Absent: never.
   */
  readonly ownsBoth?: (source: string, destination: string) => boolean;
}

const EVM: readonly Chain[] = ['base', 'arbitrum'];

/**
 * Whether both ends of a lane share one address format (EVM to EVM): the owner is then proven
 * by the same address; across families (Base/Arbitrum ↔ Solana/Sui) only by `ownsBoth`.
 */
export const sameChainFamily = (lane: BridgeLane): boolean =>
  EVM.includes(lane.sourceChain) && EVM.includes(lane.destChain);
const bad = (field: string, message: string) =>
  new EngineError('BAD_REQUEST', `body.${field}: ${message}`, `body.${field}`);

/** The two chains, from the canonical names or their aliases (the schema made them agree). */
function laneOf(request: PrepareBridgePlanParameters['request']): BridgeLane {
  const sourceChain = request.sourceChain ?? request.srcChain ?? request.fromChain;
  const destChain = request.destChain ?? request.dstChain ?? request.toChain;
  if (!sourceChain) throw bad('sourceChain', 'required (or srcChain / fromChain)');
  if (!destChain) throw bad('destChain', 'required (or dstChain / toChain)');
  if (sourceChain === destChain) {
    throw bad('destChain', `must differ from sourceChain (both are ${sourceChain})`);
  }
  return { sourceChain, destChain };
}

/**
 * Prepares (or blocks) a bridge of the owner's USDC and stores it with what it moves.
 *
 * Refused (nothing stored): the same chain both ways, an address that is not one on its chain,
 * an amount below the service's minimum or under the fees (400 naming the field), and a
 * destination that is not the owner's (422 BRIDGE_DESTINATION_NOT_OWNER: on EVM chains the same
 * address as the source). Blocked (stored, 200): a lane no rail runs (with `supportedLanes`),
 * the rail or the fee recipient not configured, the rail's fee or the allowance unreadable.
 * Prepared: the service fee transfer, an approval when the allowance is short, and the burn leg
 * (the mint leg comes from POST /svc/bridge/delivery once the attestation exists); fee lines,
 * minReceivedMicros, the ETA by finality, and the disclosure (risks, refundTo: the owner).
 */
export async function prepareBridgePlan(
  parameters: PrepareBridgePlanParameters,
): Promise<BridgePlanDocument> {
  const built = await buildBridgePlan(parameters);
  // Issue 44: the source chain's legs (fee transfer, approval, burn) simulated there, stored
  // with the plan and shown in its answer; the service's fee recipient is the treasury.
  const feeRecipient = parameters.bridges.feeRecipients[built.record.chain as Chain];
  const { plan, document } = await withSimulation(
    parameters.adapters,
    { plan: built.record, document: built.document },
    { venue: [], treasury: feeRecipient ? [feeRecipient] : [] },
  );
  // The plan, its legs and what it bridges: one statement.
  await storePlan(parameters, plan);
  return document;
}

/** A bridge plan built and checked, not stored: what `prepareBridgePlan` stores, and composes. */
export interface BuiltBridgePlan {
  /** The plan's document: prepared with its legs (fee transfer, approval, burn), or blocked. */
  readonly document: BridgePlanDocument;
  /** The legs the owner signs, or the blockers. */
  readonly build: LegBuild;
  /** The bridge's fees (service and rail), what the owner pays on the source chain. */
  readonly feeMicros: bigint;
  /**
   * The plan as stored: the fee leg books as `bridge_fee`, the burn leg as `bridge_burn`; a
   * prepared one with its bridge transfer.
   */
  readonly record: PlanInput;
  /** What the bridge delivers at least (net of the service's and the rail's fee); 0 if blocked. */
  readonly minReceivedMicros: bigint;
}

/**
 * `prepareBridgePlan` without the store: refuses, blocks or prepares alike, under `planId` (a
 * cross-chain deposit's own) when given. The caller stores `record` with `also`.
 */
export async function buildBridgePlan(
  parameters: PrepareBridgePlanParameters,
  planId: string = newPlanId(),
): Promise<BuiltBridgePlan> {
  const { adapters, bridges, rail, request, now } = parameters;
  const schedule = parameters.schedule ?? defaultFeeSchedule;
  const lane = laneOf(request);
  const speed: BridgeSpeed = request.speed ?? 'standard';
  const owner = adapters[lane.sourceChain].normalizeAddress(request.sourceAddress);
  if (!owner) throw bad('sourceAddress', `not an address on ${lane.sourceChain}`);
  const recipient = adapters[lane.destChain].normalizeAddress(request.destinationAddress);
  if (!recipient) throw bad('destinationAddress', `not an address on ${lane.destChain}`);
  const sameFamily = sameChainFamily(lane);
  if (sameFamily && recipient.toLowerCase() !== owner.toLowerCase()) {
    throw new EngineError(
      'BRIDGE_DESTINATION_NOT_OWNER',
      `body.destinationAddress: ${recipient} is not the owner's; a bridge between EVM chains ` +
        `delivers to the owner's own address (${owner})`,
      'body.destinationAddress',
    );
  }
  // (Checked for lanes that run: one that does not is blocked with the lanes that do.)
  if (!sameFamily && rail?.supports(lane) && !parameters.ownsBoth?.(owner, recipient)) {
    throw new EngineError(
      'BRIDGE_DESTINATION_NOT_OWNER',
      `body.destinationAddress: ${recipient} is not known to be the owner's; a bridge to another ` +
        `chain family delivers only to an address listed with ${owner} under the owner key sent`,
      'body.destinationAddress',
    );
  }
  const amount = request.amountMicros;
  if (amount < bridges.minMicros) {
    throw bad(
      'amountMicros',
      `below the bridge minimum of ${formatMicros(bridges.minMicros)} micros`,
    );
  }

  const blockers: Blocker[] = [];
  let supportedLanes: readonly BridgeLane[] | undefined;
  const feeRecipient = bridges.feeRecipients[lane.sourceChain];
  if (!rail || !rail.supports(lane)) {
    supportedLanes = rail?.lanes ?? [];
    blockers.push(
      blocker('bridge_lane_unsupported', {
        field: 'body.destChain',
        details: {
          lane: `${lane.sourceChain}→${lane.destChain}`,
          supportedLanes: supportedLanes
            .map((entry) => `${entry.sourceChain}→${entry.destChain}`)
            .join(','),
        },
      }),
    );
  } else if (!feeRecipient && schedule.bridgeFeeBps > 0) {
    blockers.push(
      blocker('bridge_rail_not_configured', {
        field: `SVC_${lane.sourceChain.toUpperCase()}_BRIDGE_FEE_RECIPIENT`,
        details: { why: "nowhere to pay the service's bridge fee" },
      }),
    );
  }

  const serviceFeeMicros = computeBridgeFeeLines({
    amountMicros: amount,
    railFeeMicros: 0n,
    schedule,
  }).lines[0].amountMicros;
  const burnMicros = amount - serviceFeeMicros;
  let priced:
    | {
        fees: ReturnType<typeof computeBridgeFeeLines>;
        threshold: number;
        eta: number;
        finality: 'fast' | 'finalized';
      }
    | undefined;
  // The owner's allowance is read while the rail prices the transfer (both fail closed).
  const allowanceRead = blockers.length === 0 && rail ? rail.readAllowance(lane, owner) : undefined;
  // Awaited below when the plan gets that far; a plan blocked before leaves it unobserved.
  allowanceRead?.catch(() => undefined);
  if (blockers.length === 0 && rail) {
    const quote = await rail.quote(lane, burnMicros, speed);
    if (quote.status === 'not_configured') {
      blockers.push(blocker('bridge_rail_not_configured', { field: quote.field }));
    } else if (quote.status === 'unavailable') {
      blockers.push(blocker('bridge_rail_unavailable', { details: { detail: quote.detail } }));
    } else {
      try {
        const fees = computeBridgeFeeLines({
          amountMicros: amount,
          railFeeMicros: quote.railFeeMicros,
          schedule,
        });
        if (quote.railFeeMicros >= burnMicros)
          throw new FeeError('the rail fee takes it all', { field: 'amountMicros' });
        priced = {
          fees,
          threshold: quote.minFinalityThreshold,
          eta: quote.etaSeconds,
          finality: quote.finality,
        };
      } catch (error) {
        if (!(error instanceof FeeError)) throw error;
        throw bad('amountMicros', `too small to pay the fees: ${error.shortMessage}`);
      }
    }
  }

  let build: LegBuild = { status: 'blocked', blockers };
  if (blockers.length === 0 && rail && priced) {
    const allowance = await (allowanceRead ?? rail.readAllowance(lane, owner));
    if (typeof allowance !== 'bigint') {
      build = {
        status: 'blocked',
        blockers: [
          blocker('rpc_unavailable', {
            details: { chain: lane.sourceChain, detail: allowance.detail },
          }),
        ],
      };
    } else {
      const railFee = priced.fees.lines[1].amountMicros;
      build = await rail.buildBurn({
        planId,
        lane,
        owner,
        recipient,
        amountMicros: burnMicros,
        railFeeMicros: railFee,
        minFinalityThreshold: priced.threshold,
        allowance,
        ...(serviceFeeMicros > 0n && feeRecipient
          ? { serviceFee: { recipient: feeRecipient, amountMicros: serviceFeeMicros } }
          : {}),
      });
    }
  }

  const ready = build.status === 'prepared' ? priced : undefined;
  const bridgeParts = {
    rail: 'cctp' as const,
    speed,
    sourceChain: lane.sourceChain,
    destChain: lane.destChain,
    sourceAddress: owner,
    destinationAddress: recipient,
    ...(ready
      ? {
          bridgeStatus: 'awaiting_burn' as const,
          burnAmountMicros: formatMicros(burnMicros),
          minReceivedMicros: formatMicros(ready.fees.netDeliveredMicros),
          feeLines: ready.fees.lines.map((line) => ({
            kind: line.kind,
            ...(line.kind === 'service_bridge_fee' ? { bps: line.bps } : {}),
            amountMicros: formatMicros(line.amountMicros),
            token: 'USDC' as const,
            payer: 'owner' as const,
          })),
          eta: {
            finality: ready.finality,
            minFinalityThreshold: ready.threshold,
            seconds: ready.eta,
          },
          disclosure: bridgeDisclosure({
            lane,
            speed,
            owner,
            recipient,
            etaSeconds: ready.eta,
            amount: `${formatUnits(amount, 6)} USDC`,
          }),
        }
      : {}),
    ...(supportedLanes ? { supportedLanes: [...supportedLanes] } : {}),
  };
  const parts = {
    planId,
    kind: 'bridge' as const,
    chain: lane.sourceChain,
    amountMicros: amount,
    feeMicros: ready ? ready.fees.totalFeeMicros : serviceFeeMicros,
    build,
    disclosure: { owner, ...bridgeParts },
    createdAt: now,
  };
  // What the bridge moves, stored with the prepared plan.
  const bridgeTransfer: BridgeTransferFields | undefined = ready && {
    rail: 'cctp',
    speed,
    sourceChain: lane.sourceChain as LedgerChain,
    destChain: lane.destChain as LedgerChain,
    owner,
    recipient,
    burnMicros,
    maxRailFeeMicros: ready.fees.lines[1].amountMicros,
    minReceivedMicros: ready.fees.netDeliveredMicros,
    ...(serviceFeeMicros > 0n && feeRecipient
      ? { serviceFeeMicros, feeRecipient }
      : { serviceFeeMicros: 0n, feeRecipient: null }),
  };
  const record = planRecord(parts, {
    venueId: null,
    owner,
    wallet: owner,
    request: {
      sourceChain: lane.sourceChain,
      destChain: lane.destChain,
      amountMicros: formatMicros(amount),
      sourceAddress: owner,
      destinationAddress: recipient,
      rail: 'cctp',
      speed,
    },
    effect: 'bridge_burn',
    ...(bridgeTransfer ? { bridgeTransfer } : {}),
  });
  // The fee transfer before the burn books the service's fee from its own receipt.
  const legs = record.legs.map((leg) =>
    leg.action === 'transfer' && leg.settles ? { ...leg, effect: 'bridge_fee' as const } : leg,
  );
  return {
    document: planDocument(parts),
    build,
    feeMicros: parts.feeMicros,
    record: { ...record, legs },
    minReceivedMicros: ready ? ready.fees.netDeliveredMicros : 0n,
  };
}
