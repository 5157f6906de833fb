import type { FeeSchedule } from '@yieldrouter/fees';
import type { PlanLegInput, Prisma, Books } from '@yieldrouter/ledger';
import type { Blocker, Chain, LegBuild, PlanDocument } from '@yieldrouter/schemas';
import { BridgePlanParts, formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { blocker } from '../plan/blocker';
import { storedLegs } from '../plan/legDocument';
import { crossAssetSwapParts } from '../swap/crossAssetSwap';
import type { CrossAssetSwap } from '../swap/crossAssetSwap';
import type { BridgeFirst } from './bridgeRequiredBlocker';
import type { BridgeRail } from './bridgeRail';
import type { BridgesConfig } from './cctpSettings';
import { buildBridgePlan, sameChainFamily } from './prepareBridgePlan';
import type { BuiltBridgePlan, PrepareBridgePlanParameters } from './prepareBridgePlan';

/** What a deposit plan needs to bridge first: the bridge settings and the rail. */
export interface DepositBridging {
  readonly bridges: BridgesConfig;
  /** The rail; undefined when none is configured (every lane is blocked). */
  readonly rail: BridgeRail | undefined;
}

export interface PrepareDepositBridgeParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  /** Unset: the service bridges nothing (the plan is blocked, `bridge_rail_not_configured`). */
  readonly bridging?: DepositBridging | undefined;
  readonly bridge: BridgeFirst;
  readonly planId: string;
  readonly now: Date;
  readonly schedule?: FeeSchedule | undefined;
  /**
   * Whether the caller's owner key lists both the source address and the venue's owner by name:
   * the only proof that funds on another chain family (its own address format) are the owner's.
   * Absent: never (such a deposit is refused 422).
   */
  readonly ownsBoth?: PrepareBridgePlanParameters['ownsBoth'] | undefined;
}

/** The bridge legs a cross-chain plan starts with, or why they could not be built. */
export interface DepositBridge {
  /** Built (prepared or blocked); undefined when no rail is configured. */
  readonly bridged: BuiltBridgePlan | undefined;
  /** The bridge's blockers (none when it is prepared), or the swap's before it. */
  readonly blockers: Blocker[];
  /** The swap into USDC on the source chain before the bridge (`prepareSwapBridge`), if any. */
  readonly swap?: CrossAssetSwap | undefined;
}

/** No bridge asked for (or none that could be tried yet). */
export const NO_BRIDGE: DepositBridge = { bridged: undefined, blockers: [] };

/**
 * The bridge legs of a cross-chain deposit (`bridge: true`), under the deposit's planId: the
 * bridge plan's own (service fee transfer, approval when short, burn on the source chain), with
 * its refusals — a source address not proven the owner's is 422 BRIDGE_DESTINATION_NOT_OWNER
 * naming `body.sourceAddress` (the deposit goes to the owner; the bridge may not take another
 * wallet's funds there; proven on an EVM lane by the same address, across chain families —
 * Base/Arbitrum ↔ Solana/Sui — only by `ownsBoth`, and the message says how), an amount under
 * the bridge minimum or its fees 400 — and its blockers (lane, rail, fee, allowance). Nothing is
 * stored here.
 */
export async function prepareDepositBridge(
  parameters: PrepareDepositBridgeParameters,
): Promise<DepositBridge> {
  const { bridging, bridge } = parameters;
  if (!bridging) {
    return {
      bridged: undefined,
      blockers: [blocker('bridge_rail_not_configured', { field: 'SVC_CCTP_ATTESTATION_URL' })],
    };
  }
  let bridged: BuiltBridgePlan;
  try {
    bridged = await buildBridgePlan(
      {
        db: parameters.db,
        adapters: parameters.adapters,
        bridges: bridging.bridges,
        rail: bridging.rail,
        request: bridge,
        now: parameters.now,
        ...(parameters.schedule ? { schedule: parameters.schedule } : {}),
        ...(parameters.ownsBoth ? { ownsBoth: parameters.ownsBoth } : {}),
      },
      parameters.planId,
    );
  } catch (error) {
    if (!(error instanceof EngineError) || error.code !== 'BRIDGE_DESTINATION_NOT_OWNER') {
      throw error;
    }
    throw new EngineError(
      error.code,
      `body.sourceAddress: ${bridge.sourceAddress} on ${bridge.sourceChain} is not known to be ` +
        `the owner's (${bridge.destinationAddress} on ${bridge.destChain}): a cross-chain deposit ` +
        `bridges the owner's own funds` +
        (sameChainFamily(bridge)
          ? ', from the same address'
          : '; across chain families send an owner key (x-api-key) listing both addresses'),
      'body.sourceAddress',
    );
  }
  return {
    bridged,
    blockers: bridged.build.status === 'blocked' ? [...bridged.build.blockers] : [],
  };
}

/** A cross-chain deposit's legs, document parts and fee, once its deposit legs are built. */
export interface BridgedDeposit {
  /** The swap legs (if any), the bridge legs, then the deposit legs; or the blockers. */
  readonly build: LegBuild;
  /** As stored: each leg with its chain; the deposit legs settle as `bridged_stake`. */
  readonly legs: PlanLegInput[];
  /** The chain of each leg, in order (the document shows it on every leg). */
  readonly legChains: readonly Chain[];
  /** The document's swap parts (if any), `bridge` parts and what the deposit legs deposit. */
  readonly parts: { readonly bridge: Record<string, unknown>; readonly depositMicros?: string };
  /** What the swap leg's settlement reads (`plans.swap`), when the plan swaps first. */
  readonly stored?: Prisma.InputJsonObject | undefined;
  /**
   * The bridge's fees (service and rail) plus the deposit's own fee, in USDC; a swap's fee
   * lines are in its input token (the document's `feeLines`), not added here.
   */
  readonly feeMicros: bigint;
}

/**
 * Joins a cross-chain deposit under one planId: the swap legs into USDC when it swaps first
 * (on the source chain), the bridge legs (on the source chain), then the deposit legs (on the
 * venue's chain) for what the bridge delivers at least. Any part blocked blocks the plan (the
 * deposit legs' blockers include the swap's and the bridge's).
 */
export function joinBridgedDeposit(
  bridge: BuiltBridgePlan,
  deposit: LegBuild,
  deposited: { readonly chain: Chain; readonly venueId: string; readonly feeMicros: bigint },
  swap?: CrossAssetSwap,
): BridgedDeposit {
  const swapLegs = swap?.build.status === 'prepared' ? swap.build.legs : swap ? undefined : [];
  const build: LegBuild =
    swapLegs && bridge.build.status === 'prepared' && deposit.status === 'prepared'
      ? { status: 'prepared', legs: [...swapLegs, ...bridge.build.legs, ...deposit.legs] }
      : {
          status: 'blocked',
          blockers: deposit.status === 'blocked' ? [...deposit.blockers] : [],
        };
  const prepared = build.status === 'prepared';
  const source = bridge.record.chain as Chain;
  const depositLegs = storedLegs(deposit, 'bridged_stake', deposited.venueId);
  const swapped = swap ? storedLegs(swap.build, 'swap', null) : [];
  const sourceLegs = [...swapped, ...bridge.record.legs];
  const swapParts = swap && crossAssetSwapParts(swap, prepared);
  // The bridge plan's own parts (rail, chains, fee lines, minReceived, ETA, disclosure).
  const bridgeParts = Object.fromEntries(
    Object.entries(bridge.document).filter(([key]) => Object.hasOwn(BridgePlanParts.shape, key)),
  );
  return {
    build,
    legs: prepared
      ? [
          ...sourceLegs.map((leg) => ({ ...leg, chain: source })),
          ...depositLegs.map((leg) => ({ ...leg, chain: deposited.chain })),
        ]
      : [],
    legChains: prepared
      ? [...sourceLegs.map(() => source), ...depositLegs.map(() => deposited.chain)]
      : [],
    parts: {
      ...swapParts?.parts,
      bridge: bridgeParts,
      ...(prepared ? { depositMicros: formatMicros(bridge.minReceivedMicros) } : {}),
    },
    stored: swapParts?.stored,
    feeMicros: bridge.feeMicros + deposited.feeMicros,
  };
}

/** A cross-chain plan's legs each name the chain they are signed and sent on. */
export const withLegChains = <Document extends PlanDocument>(
  document: Document,
  chains: readonly Chain[] | undefined,
): Document =>
  chains && document.legs
    ? { ...document, legs: document.legs.map((leg, index) => ({ ...leg, chain: chains[index] })) }
    : document;
