import type { BridgeTransferFields, LegEffect, PlanLegInput, Prisma } from '@yieldrouter/ledger';
import type { Blocker, Chain, LegBuild } from '@yieldrouter/schemas';
import {
  crossAssetBlockers,
  crossAssetSwapParts,
  crossAssetToken,
  joinCrossAssetPlan,
  prepareCrossAssetSwap,
} from '../swap/crossAssetSwap';
import type { CrossAssetSwap } from '../swap/crossAssetSwap';
import type { SwapToken } from '../swap/swapQuoteSource';
import { bridgeRequiredBlocker } from './bridgeRequiredBlocker';
import type { BridgeFirst } from './bridgeRequiredBlocker';
import { NO_BRIDGE, joinBridgedDeposit } from './crossChainDeposit';
import { crossChainSource } from './crossChainSource';
import type { CrossChainRequest } from './crossChainSource';
import type { BuiltBridgePlan } from './prepareBridgePlan';
import { prepareSwapBridge } from './swapThenBridge';
import type { PrepareSwapBridgeParameters } from './swapThenBridge';

export interface PlanFundingParameters extends Omit<
  PrepareSwapBridgeParameters,
  'bridge' | 'swapFrom'
> {
  /** The plan's chain: where its deposit legs run. */
  readonly chain: Chain;
  /** The owner on that chain; unset (a plan blocked without one): no source, no quote. */
  readonly owner: string | undefined;
  /** Where the request says the funds are; unset: on the plan's chain. */
  readonly crossChain: CrossChainRequest | undefined;
  /** Whether the request asks to bridge funds that are on another chain. */
  readonly bridgeAsked: boolean;
  /** The token the funds are in; unset or USDC: nothing to swap. */
  readonly token: string | undefined;
  /** As asked: in the token's base units. */
  readonly amountMicros: bigint;
  /** The field a `bridge_required` blocker names. */
  readonly sourceChainField: string;
  /** Whether the plan can go ahead so far; if not, nothing is quoted or bridged. */
  readonly ready: boolean;
}

/** Where a plan's funds come from and what reaches its chain: bridged, swapped or as asked. */
export interface PlanFunding {
  /** The bridge the funds need first (they are on another chain), if any. */
  readonly bridgeFirst: BridgeFirst | undefined;
  /** Whether the plan bridges them itself (its first legs on the source chain). */
  readonly bridging: boolean;
  /** The token swapped into USDC first (on the chain the funds are on), if not USDC. */
  readonly swapFrom: SwapToken | undefined;
  /** The bridge legs, built (prepared or blocked); undefined when none were tried. */
  readonly bridged: BuiltBridgePlan | undefined;
  /** The swap on the source chain before the bridge, if any. */
  readonly bridgedSwap: CrossAssetSwap | undefined;
  /** The swap on the plan's chain (no bridge), if quoted. */
  readonly swap: CrossAssetSwap | undefined;
  /** What the deposit legs deposit: the bridge's minimum received, the swap's minimum out, or as asked. */
  readonly depositMicros: bigint;
  /** `bridge_required` (funds elsewhere, not bridged), then the bridge's, then the swap's. */
  readonly blockers: readonly Blocker[];
  /** Whether the deposited amount is priced: the bridge prepared, the swap priced, or no swap. */
  readonly priced: boolean;
}

/**
 * The sequence every plan that funds a venue or the router starts with: the funds' chain
 * (`crossChainSource`: a 400 for a source address not of it), the token there (a 400 for one the
 * chain does not know), then — only for a plan that can go ahead — the legs on the source chain
 * (`prepareSwapBridge`: swap into USDC when not USDC, then the bridge) when it bridges, or one
 * quote for the swap into USDC on the plan's chain. Funds on another chain and no bridge asked:
 * `bridge_required`, naming the bridge plan to run first; nothing quoted.
 */
export async function preparePlanFunding(parameters: PlanFundingParameters): Promise<PlanFunding> {
  const { adapters, chain, owner, crossChain, amountMicros, ready } = parameters;
  const bridgeFirst =
    owner && crossChain
      ? crossChainSource(adapters, crossChain, { chain, owner, amountMicros })
      : undefined;
  const bridging = bridgeFirst !== undefined && parameters.bridgeAsked;
  // Swapped into USDC on the chain the funds are on (the source chain of a plan that bridges).
  const swapFrom = crossAssetToken(
    parameters.swaps,
    bridgeFirst ? bridgeFirst.sourceChain : chain,
    parameters.token,
    'token',
  );
  const {
    bridged,
    blockers: bridgeBlockers,
    swap: bridgedSwap,
  } = bridging && ready
    ? await prepareSwapBridge({ ...parameters, bridge: bridgeFirst, swapFrom })
    : NO_BRIDGE;
  // One quote, only for a plan that could go ahead; what it guarantees is what is deposited.
  const swap =
    swapFrom && !bridgeFirst && ready && owner
      ? await prepareCrossAssetSwap({
          ...parameters,
          owner,
          input: swapFrom,
          amountInMicros: amountMicros,
        })
      : undefined;
  const depositMicros = bridging
    ? (bridged?.minReceivedMicros ?? 0n)
    : swapFrom
      ? (swap?.depositMicros ?? 0n)
      : amountMicros;
  const swapBlockers = crossAssetBlockers(swap);
  return {
    bridgeFirst,
    bridging,
    swapFrom,
    bridged,
    bridgedSwap,
    swap,
    depositMicros,
    blockers: [
      ...(bridgeFirst && !bridging
        ? [bridgeRequiredBlocker(bridgeFirst, parameters.sourceChainField, swapFrom)]
        : []),
      ...bridgeBlockers,
      ...swapBlockers,
    ],
    priced: bridging
      ? bridged?.build.status === 'prepared'
      : !swapFrom || (swap !== undefined && swapBlockers.length === 0),
  };
}

/** A plan's legs, fee, document parts and storage, once its own legs are built (or blocked). */
export interface JoinedPlanFunding {
  /** The swap or swap and bridge legs, then the plan's own; or the blockers. */
  readonly build: LegBuild;
  /** Whether the plan bridges (its deposit legs take what the delivery credits). */
  readonly crossChain: boolean;
  /** The swap's, or the bridge's plus the plan's own; the plan's own alone otherwise. */
  readonly feeMicros: bigint;
  /** The document's swap and bridge parts. */
  readonly parts: Record<string, unknown>;
  /**
   * What the plan stores besides its record: the legs with their effects, the swap parts, and
   * what a prepared plan that bridges moves (its bridge transfer).
   */
  readonly storage: {
    readonly legs?: PlanLegInput[];
    readonly swap?: Prisma.InputJsonObject;
    readonly bridgeTransfer?: BridgeTransferFields;
  };
  /** The chain of each leg of a plan that bridges. */
  readonly legChains: readonly Chain[] | undefined;
}

/**
 * Joins the funding legs and the plan's own legs under one planId: the swap legs then the
 * plan's (`joinCrossAssetPlan`), or the swap, bridge and deposit legs (`joinBridgedDeposit`).
 * A swap before the bridge that was blocked still shows what it would have swapped.
 */
export function joinPlanFunding(
  funding: PlanFunding,
  legs: LegBuild,
  own: {
    readonly chain: Chain;
    readonly venueId: string | null;
    readonly effect: LegEffect;
    readonly feeMicros: bigint;
  },
): JoinedPlanFunding {
  const { swap, bridged, bridgedSwap } = funding;
  const { chain, venueId, feeMicros } = own;
  const crossAsset = swap && joinCrossAssetPlan(swap, legs, own.effect, venueId);
  const crossChain =
    bridged && venueId !== null
      ? joinBridgedDeposit(bridged, legs, { chain, venueId, feeMicros }, bridgedSwap)
      : undefined;
  const joined = crossAsset ?? crossChain;
  const build = joined?.build ?? legs;
  const bridgeTransfer =
    crossChain && build.status === 'prepared' ? bridged?.record.bridgeTransfer : undefined;
  return {
    build,
    crossChain: crossChain !== undefined,
    feeMicros: joined ? joined.feeMicros : feeMicros,
    parts: {
      ...crossAsset?.parts,
      ...crossChain?.parts,
      ...(bridgedSwap && !crossChain ? crossAssetSwapParts(bridgedSwap, false).parts : {}),
    },
    storage: {
      ...(crossAsset ? { swap: crossAsset.stored, legs: crossAsset.legs } : {}),
      ...(crossChain ? { legs: crossChain.legs } : {}),
      ...(crossChain?.stored ? { swap: crossChain.stored } : {}),
      ...(bridgeTransfer ? { bridgeTransfer } : {}),
    },
    legChains: crossChain?.legChains,
  };
}
