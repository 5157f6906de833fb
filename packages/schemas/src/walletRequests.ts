import { z } from 'zod';
import { Chain } from './chains';
import { MicrosString, PositiveMicrosString } from './money';
import { WalletAddress } from './params';
import { crossAssetFields, crossChainFields } from './planRequests';

// The wallet domain's requests: route, preview, withdraw, rebalance, auto-yield, positions.

/** What a v1 client may ask of a route beyond the amount (see each field's effect). */
export const RouteGoal = z.enum(['stable_yield', 'max_yield', 'balanced', 'preserve_capital']);
export type RouteGoal = z.infer<typeof RouteGoal>;
/** The goals v1 clients send, mapped to ours (`stable_yield_for_agent` is `stable_yield`). */
const RouteGoalInput = z
  .enum([...RouteGoal.options, 'stable_yield_for_agent'])
  .transform((goal): RouteGoal => (goal === 'stable_yield_for_agent' ? 'stable_yield' : goal));
export const RiskTolerance = z.enum(['low', 'medium', 'high']);
export type RiskTolerance = z.infer<typeof RiskTolerance>;

/** How the route's chain was chosen; the plan and the preview say which. */
export const ChainChoice = z
  .enum(['request', 'address', 'preferred_chains', 'best_opportunity'])
  .meta({
    description:
      '`request`: the body named it. `address`: only one chain fits the wallet address. ' +
      '`preferred_chains`: the first of `preferredChains` the address fits. `best_opportunity`: ' +
      'the chain of the best ready opportunity (live APY, then 30-day mean) the address fits.',
  });
export type ChainChoice = z.infer<typeof ChainChoice>;

const routeFields = {
  amountMicros: PositiveMicrosString,
  token: z.string().min(1).max(16).meta({ description: 'The asset routed: USDC.' }),
  stake: z.boolean().optional(),
  chain: Chain.optional().meta({
    description:
      'Without it the chain is chosen: the only chain the wallet address fits, else the first ' +
      'of `preferredChains` it fits, else the chain of the best ready opportunity it fits ' +
      '(`chainChosenBy` in the answer says which).',
  }),
  preferredChains: z
    .array(Chain)
    .min(1)
    .max(4)
    .optional()
    .meta({ description: 'Chains to prefer, in order, when `chain` is absent.' }),
  goal: RouteGoalInput.optional().meta({
    description:
      'Accepted and kept with the plan; it does not change the route yet. ' +
      '`stable_yield_for_agent` (v1 clients) is `stable_yield`.',
  }),
  execute: z
    .boolean()
    .optional()
    .meta({
      description:
        'Accepted (v1 clients send `execute: false`): a route always answers a prepared plan ' +
        'the owner signs (`ownerMustSign: true`, `submitted: false`); `true` changes nothing.',
    }),
  riskTolerance: RiskTolerance.optional().meta({
    description: 'Accepted and kept with the plan; it does not change the route yet.',
  }),
  autoCompound: z
    .boolean()
    .optional()
    .meta({
      description:
        'Accepted and kept with the plan. Every venue we route to compounds in its share price; ' +
        'there is nothing to switch.',
    }),
  autoBridge: z
    .boolean()
    .optional()
    .meta({
      description:
        '`true` without `sourceChain` blocks the plan (`bridge_not_available`): the route cannot ' +
        'tell where the funds are; send `sourceChain`, or bridge first (POST /svc/bridge/plan). With ' +
        '`sourceChain` it is the same as `bridge` (see `sourceChain`); with the funds on the ' +
        "route's chain it is ignored.",
    }),
};

/** A dry run of route: it takes exactly what route takes (the token may be left out). */
export const PreviewRequest = z
  .strictObject({
    ...routeFields,
    token: routeFields.token.optional(),
  })
  .meta({
    description:
      'Name `chain` when the wallet address fits several chains (an EVM address fits base and ' +
      'arbitrum) and none of them has a ready opportunity: else 400 naming `body.chain`.',
    examples: [{ amountMicros: '1000000', token: 'USDC', chain: 'base' }],
  });

/** The Idempotency-Key header in the body, where v1 clients send it (route, withdraw). */
const BodyIdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .optional()
  .meta({
    description:
      'The Idempotency-Key header, for clients that send it in the body; with both, they must ' +
      'be equal (else 400 naming `body.idempotencyKey`).',
  });

/** A route's token: USDC, or a token the chain swaps into USDC first. */
const RouteToken = z
  .string()
  .min(1)
  .max(64)
  .meta({
    description:
      'The asset routed: `USDC`, or another token the chain swaps (symbol or address, e.g. ' +
      '`WETH` on Base or Arbitrum), which the plan first swaps into USDC under the same planId. ' +
      "Then `amountMicros` is in that token's base units (wei for WETH). A token the chain does " +
      'not know is a 400 naming `body.token`; no swap source configured or no quote: the plan ' +
      'is `blocked` with the reason and reserves nothing.',
  });

export const RouteRequest = z
  .strictObject({
    ...routeFields,
    token: RouteToken,
    ...crossAssetFields,
    sourceChain: crossChainFields.sourceChain.meta({
      description:
        "The chain the funds are on, when it is not the route's chain. Another chain without " +
        '`bridge` (or `autoBridge`): the route is `blocked` with `bridge_required`, whose details ' +
        'name the bridge plan to run first (POST /api/v1/svc/bridge/plan and its exact body); ' +
        'nothing is reserved. With `bridge: true` and `stake: true`: one plan of the bridge legs ' +
        "(on `sourceChain`) then the stake venue's deposit legs for the bridge's " +
        '`minReceivedMicros` (as a deposit plan with `bridge: true`; nothing is reserved: the ' +
        'deposit takes what the delivery credits, 409 `BRIDGE_NOT_DELIVERED` before). Without ' +
        '`stake` a route never bridges (blocked, naming the bridge plan).',
    }),
    sourceAddress: crossChainFields.sourceAddress,
    bridge: z
      .boolean()
      .optional()
      .meta({ description: 'Accepted as `autoBridge`; see `sourceChain`.' }),
    idempotencyKey: BodyIdempotencyKey,
  })
  .meta({
    description:
      'Name `chain` when the wallet address fits several chains (an EVM address fits base and ' +
      'arbitrum) and none of them has a ready opportunity: else 400 naming `body.chain`.',
    examples: [{ amountMicros: '1000000', token: 'USDC', chain: 'base' }],
  });
export type RouteRequest = z.input<typeof RouteRequest>;

export const WithdrawRequest = z.strictObject({
  amountMicros: PositiveMicrosString,
  chain: Chain.optional(),
  token: routeFields.token.optional(),
  unstakeFirst: z
    .boolean()
    .optional()
    .meta({
      description:
        'Accepted. Withdraw exits liquid principal only: with too little liquid the answer is ' +
        '422 INSUFFICIENT_LIQUID, and staked principal comes back first with a venue withdraw ' +
        'plan (POST /svc/strategies/withdraw/plan).',
    }),
  idempotencyKey: BodyIdempotencyKey,
});

export const RebalanceRequest = z.strictObject({
  fromOpportunityId: z.string().min(1).max(128).meta({
    description: 'Where the money leaves (opportunity id, bare venue id or form- alias).',
  }),
  toOpportunityId: z.string().min(1).max(128).meta({
    description: 'Where it goes: another opportunity on the same chain.',
  }),
  amountMicros: z.union([PositiveMicrosString, z.literal('all')]).meta({
    description:
      'Integer micros as a decimal string, or "all": the whole staked balance in ' +
      '`fromOpportunityId` at the time of the call.',
  }),
  chain: Chain.optional().meta({
    description: "Optional: must be both opportunities' chain when given.",
  }),
});
export type RebalanceRequest = z.output<typeof RebalanceRequest>;

export const AutoYieldSetting = z.strictObject({
  enabled: z.boolean(),
  opportunityId: z.string().min(1).max(128).optional(),
  targetVenue: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({
      description:
        'Alias of `opportunityId` (a venue id or `form-` id, as v1 clients send); with both, they ' +
        'must name the same opportunity.',
    }),
  maxStakeMicros: MicrosString.optional().meta({
    description:
      'The most auto-yield keeps staked on a chain: a route with stake that would take the ' +
      'wallet\'s staked principal there above it is blocked `auto_yield_cap_reached`. "0" or ' +
      'absent: no cap.',
  }),
});
export const BatchPositionsRequest = z.strictObject({
  wallets: z
    .array(WalletAddress)
    .min(1)
    .max(50, { error: 'at most 50 wallets per batch' })
    .refine((wallets) => new Set(wallets).size === wallets.length, {
      error: 'wallets must not repeat',
    })
    .meta({ uniqueItems: true }),
});
