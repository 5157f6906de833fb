import { z } from 'zod';
import { Chain } from './chains';
import { anyOfRequired } from './crossFieldRules';
import { MicrosOut, PositiveMicrosString } from './money';
import { EXAMPLE_EVM_ADDRESS } from './params';
import { CrossAssetPlanDocument, PlanDocument } from './planDocuments';

// The bridge domain's requests and answers: plan, delivery and rescue of a bridge.

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

/** POST /svc/bridge/rescue: the recovery of a failed bridge, to the owner only. */
export const BridgeRescueDocument = PlanDocument.extend({
  bridgeStatus: z.literal('failed'),
  rail: z.string(),
  sourceChain: Chain,
  destChain: Chain,
  recipient: z.string().meta({
    description:
      "Where the rescue pays: the owner's address on the destination chain, from the plan's " +
      'record (the burn fixed it); never taken from the request.',
  }),
  inFlightMicros: MicrosOut.meta({
    description: "What the burn moved into the owner's in_flight; it stays there until a mint.",
  }),
  burnTxId: z.string().nullable(),
  failedAt: z.string(),
  failureReason: z.string(),
  next: z.string().meta({
    description:
      'What to do now: sign and submit the mint leg, then report it with POST ' +
      '/svc/bridge/delivery {planId, destTxId}; the confirmed mint credits once.',
  }),
}).meta({
  description:
    "A failed bridge's rescue. Prepared: the mint leg on the destination (CCTP receiveMessage of " +
    "the attested burn), minting only to the owner's address the burn named; it credits liquid on " +
    'the destination from its own confirmed receipt, once. Blocked (bridge_attestation_pending): ' +
    'the attestation has not come yet; the amount stays in flight. Both answer 200; nothing is ' +
    'credited by this call.',
});
export type BridgeRescueDocument = z.infer<typeof BridgeRescueDocument>;

const aliasOf = (name: string) => Chain.optional().meta({ description: `Alias of ${name}.` });

/** One chain named once: the field, or one of its aliases, or several that agree. */
function oneChain(names: readonly string[]) {
  return (body: Record<string, unknown>) =>
    new Set(names.map((name) => body[name]).filter((value) => value !== undefined)).size === 1;
}

/**
 * A bridge plan: `sourceChain` (aliases `srcChain`, `fromChain`) and `destChain` (aliases
 * `dstChain`, `toChain`), each named once or by names that agree.
 */
export const BridgePlanRequest = z
  .strictObject({
    sourceChain: Chain.optional().meta({ description: 'Where the USDC is burned.' }),
    srcChain: aliasOf('sourceChain'),
    fromChain: aliasOf('sourceChain'),
    destChain: Chain.optional().meta({ description: 'Where the USDC is minted.' }),
    dstChain: aliasOf('destChain'),
    toChain: aliasOf('destChain'),
    amountMicros: PositiveMicrosString.meta({ description: 'USDC micros burned on the source.' }),
    sourceAddress: z.string().min(1).max(128).meta({ description: "The owner's address there." }),
    destinationAddress: z.string().min(1).max(128).meta({
      description: "The owner's address on the destination chain; nobody else's is accepted.",
    }),
    rail: z
      .enum(['cctp'])
      .optional()
      .meta({ description: 'Circle CCTP v2 (the only rail today).' }),
    speed: z.enum(['standard', 'fast']).optional().meta({
      description:
        'standard (finalized source, no rail fee; the default) or fast (soft finality, a fee).',
    }),
  })
  .refine(oneChain(['sourceChain', 'srcChain', 'fromChain']), {
    error: 'sourceChain (or srcChain / fromChain) is required, named once',
    path: ['sourceChain'],
  })
  .refine(oneChain(['destChain', 'dstChain', 'toChain']), {
    error: 'destChain (or dstChain / toChain) is required, named once',
    path: ['destChain'],
  })
  .meta({
    allOf: [
      anyOfRequired(['sourceChain'], ['srcChain'], ['fromChain']),
      anyOfRequired(['destChain'], ['dstChain'], ['toChain']),
    ],
    description: 'The destination chain must differ from the source chain (else 400).',
    examples: [
      {
        sourceChain: 'base',
        destChain: 'arbitrum',
        amountMicros: '1000000',
        sourceAddress: EXAMPLE_EVM_ADDRESS,
        destinationAddress: EXAMPLE_EVM_ADDRESS,
      },
    ],
  });
export type BridgePlanRequest = z.infer<typeof BridgePlanRequest>;

export const BridgeDeliveryRequest = z.strictObject({
  planId: z.string().min(1).max(128),
  destTxId: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .meta({
      description:
        'The destination transaction that minted; checked against the attestation and its ' +
        'receipt before anything is credited. Absent: where the bridge stands, and the mint leg to ' +
        'sign once the burn is attested.',
    }),
});

const LockedDestination = z
  .string()
  .max(256)
  .optional()
  .meta({
    description:
      "Not needed: the rescue pays the owner's address from the plan's record. Naming another " +
      'address is refused (400 RESCUE_DESTINATION_LOCKED).',
  });

export const BridgeRescueRequest = z.strictObject({
  planId: z.string().min(1).max(128).meta({ description: 'The failed bridge plan.' }),
  destinationAddress: LockedDestination,
  recipient: LockedDestination,
  mintRecipient: LockedDestination,
});
export type BridgeRescueRequest = z.infer<typeof BridgeRescueRequest>;
