import { z } from 'zod';
import { Chain } from './chains';
import { MicrosOut } from './money';
import { ChainChoice } from './walletRequests';

/**
 * Documents of the wallet money surface. Every amount is a micros string read from the ledger,
 * which moves only on confirmed on-chain facts (DESIGN §3).
 */

const PositionVenue = z.object({
  opportunityId: z.string(),
  venueId: z.string().nullable(),
  protocol: z.string().nullable(),
  stakedMicros: MicrosOut,
});

const ChainPosition = z.object({
  liquidMicros: MicrosOut,
  stakedMicros: MicrosOut,
  pendingInMicros: MicrosOut.meta({
    description: 'Routed but not settled yet: prepared route legs waiting for their receipt.',
  }),
  pendingOutMicros: MicrosOut.meta({
    description: 'Reserved from liquid by a withdrawal waiting for its receipt.',
  }),
  inFlightMicros: MicrosOut.meta({
    description:
      'Burned on this chain by a bridge and not delivered yet (credited on the destination ' +
      'only from the confirmed mint).',
  }),
  venues: z.array(PositionVenue),
});

export const PositionDocument = z
  .object({
    schemaVersion: z.literal('svc-wallet-position.v1'),
    wallet: z.string(),
    liquidMicros: MicrosOut,
    stakedMicros: MicrosOut,
    pendingInMicros: MicrosOut,
    pendingOutMicros: MicrosOut,
    inFlightMicros: MicrosOut,
    byChain: z.object({
      sui: ChainPosition,
      solana: ChainPosition,
      base: ChainPosition,
      arbitrum: ChainPosition,
    }),
    asOf: z.string(),
  })
  .meta({ description: 'Ledger balances of one wallet, in total and by chain (all four chains).' });
export type PositionDocument = z.infer<typeof PositionDocument>;

export const BatchPositionsDocument = z.object({
  count: z.number().int(),
  positions: z
    .array(PositionDocument)
    .meta({ description: 'In the order the wallets were given.' }),
});
export type BatchPositionsDocument = z.infer<typeof BatchPositionsDocument>;

export const PublicPortfolioDocument = z.object({
  schemaVersion: z.literal('svc-wallet-portfolio.v1'),
  wallet: z.string(),
  count: z.number().int(),
  positions: z.array(
    z.object({
      opportunityId: z.string(),
      venueId: z.string().nullable(),
      protocol: z.string().nullable(),
      chain: Chain,
      depositedMicros: MicrosOut.meta({
        description: 'Cost basis: settled deposits minus settled withdrawals, net of routing legs.',
      }),
      currentMicros: MicrosOut.meta({
        description: 'What the ledger holds for the position: principal plus compounded harvests.',
      }),
      harvestedMicros: MicrosOut,
      roiPct: z.number().nullable().meta({
        description:
          'Null when there is no cost basis; 0 only at break-even. Two decimals, truncated.',
      }),
      txId: z.string().meta({ description: 'The newest on-chain transaction of the position.' }),
    }),
  ),
  totalDepositedUsd: z.string(),
  totalCurrentUsd: z.string(),
  usdBasis: z.literal('usdc_at_par').meta({
    description: 'USD totals count one USDC as one USD; every position is in USDC.',
  }),
  asOf: z.string(),
});
export type PublicPortfolioDocument = z.infer<typeof PublicPortfolioDocument>;

export const ActivityStatus = z.enum(['submitted', 'confirmed', 'in_flight', 'failed']).meta({
  description:
    'in_flight: a bridge row whose burn settled and whose delivery has not been credited yet.',
});

export const PublicActivityDocument = z.object({
  schemaVersion: z.literal('svc-wallet-activity.v1'),
  wallet: z.string(),
  count: z.number().int(),
  activity: z.array(
    z.object({
      planId: z.string(),
      legIndex: z.number().int(),
      kind: z.enum(['swap', 'bridge', 'deposit', 'withdraw', 'transfer']).meta({
        description: 'transfer: an auto-pay leg paying a payee (its plan is of kind auto_pay).',
      }),
      txId: z.string().nullable().meta({ description: 'Null only for a leg that failed unsent.' }),
      chain: Chain,
      destChain: Chain.nullable(),
      venueId: z.string().nullable(),
      amountIn: MicrosOut,
      amountOut: MicrosOut.nullable().meta({
        description:
          'Settled amount from the receipt; null until the leg is confirmed. On the bridge row ' +
          '(the burn): what the mint receipt credited on destChain, null until delivered.',
      }),
      quotedAmountOut: MicrosOut,
      inFlightMicros: MicrosOut.nullable().meta({
        description:
          "Bridge rows: what the burn receipt proved burned and no mint has delivered yet ('0' " +
          'once delivered); null on other rows. Counted in the position as inFlightMicros.',
      }),
      destTxId: z.string().nullable().meta({
        description: 'Bridge rows: the destination transaction that delivered (minted); else null.',
      }),
      status: ActivityStatus,
      error: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export type PublicActivityDocument = z.infer<typeof PublicActivityDocument>;

export const SettleLegResult = z.object({
  planId: z.string(),
  legIndex: z.number().int(),
  status: z.enum(['pending', 'confirmed', 'failed', 'expired', 'cancelled']).meta({
    description:
      'pending: the chain does not show the transaction final yet (an expired or cancelled leg ' +
      'keeps its status and is watched); confirmed / failed: final, from a receipt proving the ' +
      "leg's own transaction; expired / cancelled: the reservation went back, and a late landing " +
      'of the transaction still settles the leg.',
  }),
  txId: z.string(),
  quotedAmountMicros: MicrosOut,
  settledAmountMicros: MicrosOut.nullable().meta({
    description: 'What the receipt proved the chain moved (never the quote).',
  }),
  reason: z.string().nullable(),
  reviewReason: z
    .string()
    .nullable()
    .meta({
      description:
        "Set when the chain moved an amount outside the leg's bounds (a short or long fill) or " +
        'more than the books can hold; the books hold what the chain moved.',
    }),
  replay: z
    .boolean()
    .meta({ description: 'True when the leg had already settled with this txId.' }),
});
export type SettleLegResult = z.infer<typeof SettleLegResult>;

export const AutoYieldDocument = z.object({
  wallet: z.string(),
  enabled: z.boolean(),
  opportunityId: z.string().nullable().meta({
    description: 'Where route with stake deposits; null = the best ready venue on the chain.',
  }),
  venueId: z.string().nullable(),
  maxStakeMicros: MicrosOut.nullable().meta({
    description: 'The most auto-yield keeps staked; null = no cap.',
  }),
  updatedAt: z.string().nullable(),
});
export type AutoYieldDocument = z.infer<typeof AutoYieldDocument>;

export const RoutePreview = z.object({
  wallet: z.string(),
  chain: Chain,
  chainChosenBy: ChainChoice,
  amountMicros: MicrosOut,
  feeMicros: MicrosOut,
  netMicros: MicrosOut,
  stake: z.boolean(),
  venue: z
    .object({
      opportunityId: z.string(),
      venueId: z.string(),
      protocol: z.string(),
      grossApyBps: z.number().int().nullable(),
    })
    .nullable(),
  liquidAfterMicros: MicrosOut,
  stakedAfterMicros: MicrosOut,
  blockers: z.array(z.object({ code: z.string(), message: z.string() })),
});
export type RoutePreview = z.infer<typeof RoutePreview>;

export const HarvestRequest = z.strictObject({ execute: z.boolean().optional() }).meta({
  description:
    'Only `execute`; an empty object (or no body) is accepted. Amounts never come from the ' +
    'request: yield is read from the venue on chain.',
});

export const HarvestPositionResult = z.strictObject({
  chain: Chain,
  opportunityId: z.string(),
  venueId: z.string().nullable(),
  outcome: z.enum(['harvested', 'no_yield', 'unavailable', 'prepared']).meta({
    description:
      'harvested: booked and compounded; no_yield: the tracked shares are worth no more than ' +
      'the mark; unavailable: see reason (chain unreadable, venue not in the catalog, the chain ' +
      'holds fewer shares than the books track, or a leg settled while the value was read); ' +
      'prepared: execute:true, amounts a claim would realise and the plan that realises them ' +
      '(planId), nothing booked.',
  }),
  reason: z.string().optional(),
  harvestId: z.string().nullable(),
  planId: z
    .string()
    .nullable()
    .optional()
    .meta({
      description:
        "execute:true: the withdraw plan that realises this position's yield for the owner to " +
        'sign (GET /svc/plans/{planId}): the venue pays the yield above the staked balance and ' +
        "the protocol's share reaches the treasury on chain (the skim leg, or the Solana " +
        'router); null when it could not be prepared (see reason).',
    }),
  valueMicros: MicrosOut.nullable().meta({
    description:
      'What the shares our settled legs minted are worth at the venue share price now, read ' +
      'on chain through the adapter; null when unread. Outside money is not in it.',
  }),
  basisMicros: MicrosOut.nullable().meta({
    description:
      'The mark: what the books recognised those shares to be worth (staked balance plus the ' +
      'fees earlier harvests left in the position). Gross yield = value − mark.',
  }),
  untrackedMicros: MicrosOut.nullable().meta({
    description:
      'Money on the same venue our plans did not put there (an outside deposit, a leg not ' +
      'settled yet): reported, never skimmed; null when unread.',
  }),
  grossYieldMicros: MicrosOut,
  protocolFeeMicros: MicrosOut,
  profitFeeMicros: MicrosOut,
  netYieldMicros: MicrosOut,
});
export type HarvestPositionResult = z.infer<typeof HarvestPositionResult>;

export const HarvestResult = z
  .strictObject({
    wallet: z.string(),
    mode: z.enum(['compound', 'no_op_harvest', 'harvest', 'prepare_only']),
    outcome: z.enum(['harvested', 'blocked', 'unavailable', 'prepared']),
    reason: z.string().optional(),
    grossYieldMicros: MicrosOut,
    protocolFeeMicros: MicrosOut.meta({
      description: 'The yield skim (500 bps by default) sent to protocol fees.',
    }),
    profitFeeMicros: MicrosOut.meta({ description: 'The harvest profit fee; 0 while off.' }),
    netYieldMicros: MicrosOut.meta({ description: 'Compounded into the staked balance.' }),
    prepared: z.boolean().optional(),
    httpStatus: z.union([z.literal(200), z.literal(202)]),
    positions: z.array(HarvestPositionResult),
    asOf: z.string(),
  })
  .meta({
    description: [
      'Harvest outcomes (SPEC): nothing staked or no yield → mode no_op_harvest, outcome',
      'blocked, gross "0", HTTP 200 (reason nothing_staked or no_yield); the yield source',
      'unavailable → gross "0" with reason, HTTP 200; real yield → mode compound, net = gross −',
      'skim − profit fee, compounded, HTTP 200; execute:true → HTTP 202, prepared: true, nothing',
      'booked, each position naming the withdraw plan that realises its yield and pays the skim',
      'to the treasury (planId). Totals cover the positions harvested (or prepared).',
    ].join(' '),
  });
export type HarvestResult = z.infer<typeof HarvestResult>;
