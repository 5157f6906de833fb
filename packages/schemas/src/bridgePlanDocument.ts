import { z } from 'zod';
import { Chain } from './chains';
import { MicrosOut } from './money';
import { CrossAssetPlanDocument, PlanDocument } from './planDocuments';

export const BridgeLane = z.object({ sourceChain: Chain, destChain: Chain });
export type BridgeLane = z.infer<typeof BridgeLane>;

export const BridgeFeeLineDocument = z
  .object({
    kind: z.enum(['service_bridge_fee', 'rail_fee']),
    bps: z.number().int().optional(),
    amountMicros: MicrosOut,
    token: z.string(),
    payer: z.string(),
  })
  .meta({
    description:
      "A bridge fee line: the service's bridge fee (bridgeFeeBps of GET /svc/fees, paid on the " +
      'source) or the most the rail may keep on the destination (its fee endpoint; 0 standard).',
  });

export const BridgeStatus = z.enum(['awaiting_burn', 'in_flight', 'delivered', 'failed']);
export type BridgeStatus = z.infer<typeof BridgeStatus>;

/** The bridge parts of a bridge plan (prepared: priced; blocked: the request and why). */
export const BridgePlanParts = z.object({
  rail: z.string(),
  speed: z.string(),
  sourceChain: Chain,
  destChain: Chain,
  sourceAddress: z.string(),
  destinationAddress: z.string(),
  bridgeStatus: BridgeStatus.optional(),
  burnAmountMicros: MicrosOut.optional().meta({
    description: 'What the burn leg burns: amountMicros less the service fee.',
  }),
  minReceivedMicros: MicrosOut.optional().meta({
    description: 'The least the destination mints: amountMicros less every fee at its most.',
  }),
  feeLines: z.array(BridgeFeeLineDocument).optional(),
  eta: z
    .object({
      finality: z.string(),
      minFinalityThreshold: z.number(),
      seconds: z.number(),
    })
    .optional()
    .meta({ description: "An estimate from the source chain's finality, not a promise." }),
  disclosure: z
    .object({ risks: z.array(z.string()), refundTo: z.string() })
    .optional()
    .meta({ description: 'What can go wrong and where the money goes then: always the owner.' }),
  supportedLanes: z.array(BridgeLane).optional().meta({
    description: 'Blocked bridge_lane_unsupported: the lanes a rail runs today.',
  }),
});

/** POST /svc/bridge/plan: the plan document with its bridge parts. */
export const BridgePlanDocument = PlanDocument.extend(BridgePlanParts.shape).meta({
  description:
    'A bridge plan: prepared (the burn leg to sign now, fee lines, minReceivedMicros, ETA, ' +
    'disclosure; the mint leg is prepared once the attestation exists) or blocked (blockers[]: ' +
    'lane unsupported with supportedLanes, rail not configured or unavailable). Both answer 200.',
});
export type BridgePlanDocument = z.infer<typeof BridgePlanDocument>;

/**
 * POST /svc/strategies/deposit/plan: a deposit plan; cross-asset, the swap parts; cross-chain
 * with `bridge: true`, the bridge parts of its first legs.
 */
export const DepositPlanDocument = CrossAssetPlanDocument.extend({
  bridge: BridgePlanParts.optional().meta({
    description:
      "Cross-chain (`sourceChain` other than the venue's, `bridge: true`): the bridge its first " +
      'legs make (service fee transfer, approval when short, burn; on `sourceChain`), as a ' +
      "bridge plan shows it. The deposit legs (on the venue's chain, `chain` on each leg) " +
      'deposit `minReceivedMicros` (= `depositMicros`, the cost basis: net of the bridge and ' +
      'rail fees) and are sent and settle only once the bridge is delivered (POST ' +
      '/svc/bridge/delivery with the planId); earlier: 409 BRIDGE_NOT_DELIVERED. From another ' +
      "token: the swap legs into USDC on `sourceChain` come first, the bridge takes the swap's " +
      'minAmountOutMicros, and its fee and burn legs wait for the swap leg (409 SWAP_NOT_SETTLED).',
  }),
}).meta({
  description:
    'A deposit plan: prepared (legs the owner signs) or blocked (blockers[]); both answer 200. ' +
    'Cross-asset: the swap legs first (see the swap parts). Cross-chain: without `bridge` it is ' +
    'blocked with `bridge_required` naming the bridge plan to run first; with `bridge: true` the ' +
    'bridge legs come first (`bridge`), then the deposit legs, under one planId.',
});
export type DepositPlanDocument = z.infer<typeof DepositPlanDocument>;
