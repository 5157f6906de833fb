import { z } from 'zod';
import { UnsignedEncoding } from './chainAdapter';
import { Chain, ExecutionMode } from './chains';
import { Blocker } from './errors';
import { MicrosOut, NativeAmountOut } from './money';
import { ChainChoice } from './walletRequests';
import { PlanDivergence, PlanSimulation } from './planSimulation';

// What plan, execute and harvest routes answer: the plan document (prepared or blocked, and as
// stored with its legs' state) and the harvest result.
export const PlanLegDocument = z
  .looseObject({
    index: z.number().int(),
    action: z.enum([
      'approve',
      'deposit',
      'withdraw',
      'swap',
      'transfer',
      'wrap',
      'unwrap',
      'burn',
      'mint',
    ]),
    summary: z.string(),
    amountMicros: MicrosOut,
    settles: z.boolean().meta({ description: 'True for the leg whose receipt moves the money.' }),
    status: z.enum(['unsigned', 'submitted', 'confirmed', 'failed', 'expired', 'cancelled']),
    txId: z.string().nullable(),
    chain: Chain.optional().meta({
      description:
        'Cross-chain plans: the chain the leg is signed and sent on (the bridge legs on the ' +
        "source chain, the deposit legs on the venue's).",
    }),
    encoding: UnsignedEncoding,
    transaction: z
      .union([
        z.string(),
        z.object({
          chainId: z.number().int(),
          from: z.string(),
          to: z.string(),
          data: z.string(),
          value: z.string(),
        }),
      ])
      .meta({ description: "The unsigned transaction in the chain's own encoding." }),
  })
  .meta({ description: 'One unsigned, owner-signed transaction of a plan.' });

export const PlanDocument = z
  .looseObject({
    planId: z.string().optional(),
    kind: z.string().optional(),
    status: z.enum(['prepared', 'blocked']),
    submitted: z.boolean(),
    ownerMustSign: z.boolean(),
    feeMicros: MicrosOut,
    strategyId: z.string().optional(),
    opportunityId: z.string().optional(),
    venueId: z.string().optional(),
    chain: Chain.optional(),
    chainChosenBy: ChainChoice.optional().meta({
      description: 'Route plans: how the chain was chosen when the request did not name it.',
    }),
    amountMicros: MicrosOut.optional(),
    executionMode: ExecutionMode.optional(),
    writeReady: z.boolean().optional(),
    owner: z.string().optional(),
    skim: z
      .object({ treasury: z.string(), skimMicros: MicrosOut, grossMicros: MicrosOut })
      .optional()
      .meta({
        description:
          'Venue withdrawals (withdraw and rebalance plans) where the owner holds the receipts ' +
          '(Sui, plain EVM venues): the ' +
          "protocol's share of what leaves the venue, paid to the chain's treasury (GET /svc/fees " +
          '`treasuries`) by the same plan. `grossMicros` is what the venue pays; the owner ' +
          "receives `amountMicros` when it fits the owner's share of the position.",
      }),
    legs: z.array(PlanLegDocument).optional(),
    blockers: z.array(Blocker).optional(),
    simulation: PlanSimulation.optional().meta({
      description:
        'Prepared plans: the legs simulated on their chain at prepare (docs/simulation.md); ' +
        '`unavailable` when the chain could not be read.',
    }),
    createdAt: z.string().optional(),
  })
  .meta({
    description:
      'A prepared plan (legs the owner signs) or a blocked plan (blockers[]); both answer HTTP 200.',
  });
export type PlanDocument = z.infer<typeof PlanDocument>;

export const SwapFeeLine = z
  .object({
    kind: z.enum(['service_swap_fee', 'gas_sponsor_fee', 'pool_fee']),
    bps: z.number().int().min(0).max(10_000).optional().meta({
      description: "The rate on the amount in, where the line is one (the service's fee).",
    }),
    amountMicros: MicrosOut,
    token: z.string().meta({ description: 'The token the line is charged in.' }),
    payer: z.enum(['owner']),
  })
  .meta({
    description:
      "A swap fee line: the service's swap fee (swapFeeBps of GET /svc/fees, taken from the " +
      'input), on a gas-sponsor plan its fee (gasSponsorFeeBps, on the USDC the top-up sells), ' +
      'or the pool / DEX fee as the quote source reported it.',
  });

/** The swap parts of a swap plan (prepared: from the quote; blocked: the request only). */
export const SwapPlanParts = z.object({
  inputToken: z.string(),
  outputToken: z.string(),
  amountInMicros: MicrosOut,
  slippageBps: z.number().int(),
  quotedAmountOutMicros: MicrosOut.optional().meta({
    description: 'What the quote source said the owner receives; kept for the slippage audit.',
  }),
  minAmountOutMicros: MicrosOut.optional().meta({
    description:
      'The least the owner accepts: quote × (10000 − slippageBps) / 10000, rounded down. A fill ' +
      'below it fails the leg.',
  }),
  priceImpactBps: z.number().int().nullable().optional().meta({
    description: 'Price impact the source reported, in bps; null when it reported none.',
  }),
  quoteSource: z.string().optional().meta({ description: 'Which quote source priced it.' }),
  expiresAt: z.string().optional().meta({ description: 'When the quote stops being honoured.' }),
  feeLines: z.array(SwapFeeLine).optional(),
});

/** POST /svc/evm/swap/plan: the plan document with its swap parts. */
export const SwapPlanDocument = PlanDocument.extend(SwapPlanParts.shape).meta({
  description:
    'A swap plan: prepared (an approval leg when the allowance is short, then the swap leg the ' +
    'quote built; fee lines, quoted and minimum amounts out, the quote source and its expiry) ' +
    'or blocked (blockers[]: quote source not configured, unavailable, timed out, no route, ' +
    'chain unreadable…); never a made-up price. Both answer HTTP 200.',
});
export type SwapPlanDocument = z.infer<typeof SwapPlanDocument>;

/**
 * POST /wallets/{address}/route and POST /svc/strategies/deposit/plan: the plan document; with a
 * `token` other than USDC, also the swap parts of the swap into USDC its first legs make.
 */
export const CrossAssetPlanDocument = PlanDocument.extend({
  ...SwapPlanParts.partial().shape,
  depositMicros: MicrosOut.optional().meta({
    description:
      "Cross-asset, prepared: the USDC the deposit leg deposits — the swap's minimum out, net " +
      "of every fee (what the swap guarantees); the position's cost basis. A route reserves it " +
      '(`pendingInMicros`).',
  }),
}).meta({
  description:
    'A route or deposit plan. With a `token` other than USDC (cross-asset): the swap legs (an ' +
    'approval when the allowance is short, then the swap into USDC) come first, then the deposit ' +
    'legs, under one planId in leg order. `amountMicros` and `amountInMicros` are what was ' +
    "asked, in the token's base units; `inputToken`, the quote, `minAmountOutMicros`, " +
    '`feeLines` (service swap fee, pool fee) and `feeMicros` (their input-side sum) are the ' +
    "swap's; `depositMicros` is what the deposit leg deposits. What the swap pays above its " +
    "minimum stays liquid in the owner's wallet, outside the books. No swap source or no " +
    'quote: `blocked` with the reason, nothing reserved.',
});
export type CrossAssetPlanDocument = z.infer<typeof CrossAssetPlanDocument>;

/** POST /svc/gas-sponsor/plan: the plan document with its sizing and top-up parts. */
export const GasSponsorPlanDocument = PlanDocument.extend({
  gasUnits: NativeAmountOut.optional().meta({ description: 'EVM: the gas the legs use, summed.' }),
  feePerGas: NativeAmountOut.optional().meta({
    description: 'EVM: the max fee per gas the sizing assumes (wei).',
  }),
  legFees: z
    .array(NativeAmountOut)
    .optional()
    .meta({
      description:
        "Solana: each leg's fee for its message (getFeeForMessage: 5000 lamports per signature " +
        'plus its priority fee), in leg order.',
    }),
  rentPerAccount: NativeAmountOut.optional().meta({
    description: 'Solana: the rent-exempt minimum of one token account (165 bytes), lamports.',
  }),
  accountsCreated: z
    .array(z.string())
    .optional()
    .meta({
      description:
        'Solana: the associated token accounts the legs create that do not exist yet (the owner ' +
        'pays rentPerAccount for each).',
    }),
  nativeRequired: NativeAmountOut.optional().meta({
    description:
      'What the legs cost in native gas, in the smallest unit (EVM: the summed gas estimate × ' +
      'the max fee per gas, plus any value the legs send; Solana: Σ legFees plus rentPerAccount ' +
      '× accountsCreated, lamports; Sui: the summed dry-run gas budgets, plus any SUI the legs ' +
      'spend).',
  }),
  nativeHeld: NativeAmountOut.optional().meta({
    description: "The wallet's native balance, read on chain.",
  }),
  nativeNeeded: NativeAmountOut.optional().meta({
    description: 'nativeRequired − nativeHeld, at least 0: what the top-up delivers.',
  }),
  usdcCostMicros: MicrosOut.optional().meta({
    description: 'The USDC the top-up sells, fee included (the plan amount).',
  }),
  ...SwapPlanParts.pick({ feeLines: true, quoteSource: true, expiresAt: true }).shape,
}).meta({
  description:
    'A gas-sponsor plan: prepared (the native amount the legs need less what the wallet holds, ' +
    'its USDC cost through a swap quote, the fee lines, and the owner-signed top-up legs: ' +
    'approve when short (EVM), swap USDC for wrapped native, unwrap; on Sui one swap USDC for ' +
    'SUI) or blocked (blockers[]: chain ' +
    'unreadable, no quote source on the chain, quote unavailable or slow); never a made-up ' +
    'price. Both answer HTTP 200.',
});
export type GasSponsorPlanDocument = z.infer<typeof GasSponsorPlanDocument>;

export const PrincipalFeeLine = z
  .object({
    kind: z.literal('principal_fee'),
    bps: z.number().int().min(0).max(10_000).meta({
      description: 'principalFeeBps of the published schedule (GET /svc/fees): 0 today.',
    }),
    amountMicros: MicrosOut,
    token: z.string(),
    payer: z.enum(['owner']),
  })
  .meta({ description: 'The fee on principal a plan moves, from the published schedule.' });

/** POST /wallets/{address}/rebalance: one plan, within one chain. */
export const RebalancePlanDocument = PlanDocument.extend({
  wallet: z.string(),
  fromOpportunityId: z.string(),
  toOpportunityId: z.string(),
  fromVenueId: z.string(),
  toVenueId: z.string(),
  feeLines: z.array(PrincipalFeeLine),
  withinChainOnly: z.literal(true),
}).meta({
  description:
    'A rebalance plan: the withdraw leg out of `fromOpportunityId` (index 0; with `skim`, EVM ' +
    "adds the treasury's transfer after it, Sui splits it off in the same transaction), then " +
    'the deposit leg into `toOpportunityId` (an EVM deposit adds its approval leg before it), all signed by ' +
    'the owner; or blocked (blockers[], guardrails included). Nothing moves on the books until ' +
    'a leg settles from its receipt: staked:<from> → pending_in → staked:<to>.',
});
export type RebalancePlanDocument = z.infer<typeof RebalancePlanDocument>;

/** A leg of a stored plan: as prepared, plus what the chain said about it so far. */
export const StoredPlanLegDocument = PlanLegDocument.extend({
  settledAmountMicros: MicrosOut.nullable().meta({
    description: 'What the receipt moved, once the leg is confirmed; never the quote.',
  }),
  sharesSettled: z
    .string()
    .regex(/^(0|[1-9][0-9]*)$/)
    .nullable()
    .meta({
      description:
        'Venue legs: the venue shares the receipt proved minted or burned (integer, share units).',
    }),
  failureReason: z.string().nullable(),
  reviewReason: z.string().nullable().meta({
    description:
      "Set when the chain moved an amount outside the leg's bounds; the books hold what moved.",
  }),
  releasedAt: z.string().nullable().meta({
    description: 'When the reservation went back (the leg expired or was cancelled).',
  }),
  updatedAt: z.string(),
});

/** GET /svc/plans/{planId}: the plan document as prepared, with its current state. */
export const StoredPlanDocument = PlanDocument.extend({
  planId: z.string(),
  kind: z.enum([
    'deposit',
    'withdraw',
    'route',
    'exit',
    'swap',
    'rebalance',
    'auto_pay',
    'gas_sponsor',
    'bridge',
  ]),
  legs: z.array(StoredPlanLegDocument),
  blockers: z.array(Blocker),
  divergences: z.array(PlanDivergence).optional().meta({
    description:
      'Settled legs whose transaction moved USDC otherwise than the simulation (plan.divergence).',
  }),
}).meta({
  description:
    'A stored plan: `prepared` (legs with their status unsigned → submitted → confirmed or ' +
    'failed, txId and settled amount; expired or cancelled when the reservation went back, ' +
    'still settled by a late landing) or `blocked` (blockers[], no legs). `submitted` is true ' +
    'once the server broadcast a leg and holds the digest the chain returned.',
});
export type StoredPlanDocument = z.infer<typeof StoredPlanDocument>;

/** POST /svc/strategies/deposit/execute: the plan after the broadcast, and the leg's txId. */
export const ExecuteResult = StoredPlanDocument.extend({
  legIndex: z.number().int(),
  txId: z.string().meta({ description: "The chain's id of the broadcast transaction." }),
  replay: z.boolean().meta({
    description: 'True when the leg already carried these bytes; nothing was sent again.',
  }),
});
export type ExecuteResult = z.infer<typeof ExecuteResult>;
