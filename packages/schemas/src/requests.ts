import { z } from 'zod';
import { Chain } from './chains';
import { MicrosOut, MicrosString, NativeAmountString, PositiveMicrosString } from './money';
import { DiscoverSort } from './opportunities';
import { WebhookEventType } from './webhookEventType';
import { anyOfRequired, oneOfRequired, requiredPerValue } from './crossFieldRules';

/**
 * A wallet in the chain's own format, or a free-form label (SPEC walkthrough). Chain-specific
 * validation happens where the chain is known.
 */
/** The EVM address the document's examples use (lower case: no checksum to get wrong). */
const EXAMPLE_EVM_ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
/**
 * A plan id of the only form a handler accepts (chainAdapter's PLAN_ID, checked after the
 * schema, so stated as an example and in the description rather than as a pattern).
 */
const EXAMPLE_PLAN_ID = 'plan_0123456789abcdef0123456789abcdef';

export const WalletAddress = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'must be a wallet address or label of [A-Za-z0-9_.:-]' })
  .meta({ examples: [EXAMPLE_EVM_ADDRESS] });

export const WalletParams = z.strictObject({ address: WalletAddress });
export const IdParams = z.strictObject({ id: z.string().min(1).max(128) });
export const AddressQuery = z.strictObject({ address: z.string().min(1).max(128) });
export const WalletQuery = z.strictObject({ wallet: WalletAddress });

/** The most a swap may lose to price movement, in bps: 0..500 (5 %). */
export const SlippageBps = z
  .number()
  .int()
  .min(0)
  .max(500)
  .meta({ description: 'Slippage tolerance in bps, 0..500; the default is in GET /svc/fees.' });

/** What a cross-asset route or deposit adds: how much the swap into USDC may slip. */
const crossAssetFields = {
  slippageBps: SlippageBps.optional().meta({
    description:
      'Cross-asset only (a `token` other than USDC): the slippage bound of the swap into USDC, ' +
      "0..500 bps; the default is in GET /svc/fees. The deposit leg deposits the swap's " +
      'minimum out.',
  }),
};

/**
 * Where the funds are when it is not the venue's chain (issue 18, item 5): without `bridge` the
 * plan is `blocked` (`bridge_required`) and names the bridge plan to run first; with it the plan
 * bridges, then deposits, under one planId. Nothing moves across chains silently.
 */
const crossChainFields = {
  sourceChain: Chain.optional().meta({
    description:
      "The chain the funds are on, when it is not the plan's chain (the venue's). Absent or the " +
      'same chain: an ordinary one-chain plan. Another chain without `bridge: true`: the plan is ' +
      '`blocked` with `bridge_required`, whose details name the bridge plan to run first (POST ' +
      '/api/v1/svc/bridge/plan and its exact body); nothing is reserved.',
  }),
  sourceAddress: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({
      description:
        "The owner's address on `sourceChain` (default: the owner's address, the same on EVM " +
        "chains). The bridge delivers to the owner's address on the venue's chain only.",
    }),
  bridge: z
    .boolean()
    .optional()
    .meta({
      description:
        "`true` with a `sourceChain` other than the venue's: one plan of the bridge legs (service " +
        "fee, burn on the source chain) then the deposit legs on the venue's chain for the " +
        "bridge's `minReceivedMicros` (the cost basis, net of the bridge and rail fees). The " +
        'deposit legs settle only after the bridge is delivered (409 `BRIDGE_NOT_DELIVERED` ' +
        'before). With a `token` other than USDC the source chain swaps: its swap legs into USDC ' +
        "come first, the bridge takes the swap's `minAmountOutMicros` and its fee and burn legs " +
        'settle only after the swap leg (409 `SWAP_NOT_SETTLED` before). Ignored when the funds ' +
        "are on the venue's chain already (nothing to bridge).",
    }),
};

const planIdFields = {
  opportunityId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'svcop… (or a bare venue id / form- alias).' }),
  strategyId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'Deprecated alias of opportunityId: bare venue id or form-<id>.' }),
  amountMicros: PositiveMicrosString,
  owner: z.string().min(1).max(128).optional().meta({
    description: "The owner's address on the venue's chain; without it the plan is blocked.",
  }),
};

/** The id rules of a deposit or withdraw plan: one id, or two that agree. */
function withPlanIdRules<
  T extends z.ZodType<{ opportunityId?: string | undefined; strategyId?: string | undefined }>,
>(schema: T) {
  return schema
    .refine((body) => body.opportunityId !== undefined || body.strategyId !== undefined, {
      error: 'opportunityId (or the deprecated strategyId) is required',
      path: ['opportunityId'],
    })
    .refine(
      (body) =>
        body.opportunityId === undefined ||
        body.strategyId === undefined ||
        body.opportunityId === body.strategyId,
      { error: 'give opportunityId or strategyId, not two different ids', path: ['strategyId'] },
    )
    .meta(anyOfRequired(['opportunityId'], ['strategyId']));
}

/** Accepts `opportunityId`, or the deprecated `strategyId` (bare venue id or `form-<id>`). */
export const DepositPlanRequest = withPlanIdRules(
  z.strictObject({
    ...planIdFields,
    token: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({
        description:
          "The asset deposited: `USDC` (the default), or another token the venue's chain swaps " +
          "(symbol or address), swapped into USDC by the plan's first legs; then `amountMicros` " +
          "is in that token's base units. With `bridge: true`, a token `sourceChain` swaps (on " +
          'that chain, before the bridge). Unknown token: 400 naming `body.token`.',
      }),
    ...crossAssetFields,
    ...crossChainFields,
    autoYieldEnabled: z
      .boolean()
      .optional()
      .meta({
        description:
          'Accepted (v1 clients send it) and ignored: a plan changes no setting. Turn auto-yield ' +
          'on with PUT /wallets/{address}/auto-yield.',
      }),
  }),
);
export type DepositPlanRequest = z.input<typeof DepositPlanRequest>;

export const WithdrawPlanRequest = withPlanIdRules(z.strictObject(planIdFields));

const SignedTransaction = z
  .string()
  .min(1)
  .max(262144)
  .meta({
    description:
      "The owner-signed transaction in the chain's own encoding: Solana base64 wire bytes; " +
      'Sui base64 TransactionData bytes (with `signatures`); EVM 0x raw signed transaction.',
  });

export const ExecuteRequest = z
  .strictObject({
    planId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({
        description:
          'The prepared plan (plan_ + 32 hex) whose leg these bytes carry. Without it, the v1 ' +
          'alias shape names the plan: `strategyId`, `owner` and `amountMicros` of exactly one ' +
          'prepared, unsubmitted deposit plan (none: 404 PLAN_NOT_FOUND; several: 409 ' +
          'PLAN_AMBIGUOUS, both naming `body.planId`).',
        examples: [EXAMPLE_PLAN_ID],
      }),
    legIndex: z
      .number()
      .int()
      .min(0)
      .max(63)
      .optional()
      .meta({ description: 'The leg the bytes sign; default 0 (Solana and Sui plans have one).' }),
    signedTransaction: SignedTransaction.optional(),
    signatures: z
      .array(z.string().min(1).max(1024))
      .max(16)
      .optional()
      .meta({ description: 'Sui only: the serialized signatures (base64).' }),
    strategyId: planIdFields.strategyId.meta({
      description: "Alias shape: the deposit plan's opportunity (venue id, form- or svcop… id).",
    }),
    owner: z.string().min(1).max(128).optional().meta({
      description: "Alias shape: the deposit plan's owner.",
    }),
    amountMicros: PositiveMicrosString.optional().meta({
      description: "Alias shape: the deposit plan's amount.",
    }),
    signedTx: SignedTransaction.optional().meta({ description: 'Alias of signedTransaction.' }),
  })
  .refine((body) => body.planId !== undefined || body.strategyId !== undefined, {
    error: 'planId is required (or the alias shape: strategyId, owner and amountMicros)',
    path: ['planId'],
  })
  .refine(
    (body) =>
      body.planId !== undefined || (body.owner !== undefined && body.amountMicros !== undefined),
    { error: 'the alias shape needs strategyId, owner and amountMicros', path: ['owner'] },
  )
  .refine((body) => (body.signedTransaction ?? body.signedTx) !== undefined, {
    error: 'signedTransaction (or its alias signedTx) is required',
    path: ['signedTransaction'],
  })
  .refine(
    (body) =>
      body.signedTransaction === undefined ||
      body.signedTx === undefined ||
      body.signedTransaction === body.signedTx,
    { error: 'give signedTransaction or signedTx, not two different ones', path: ['signedTx'] },
  )
  .meta({
    description:
      'Owner-signed bytes only. A body carrying anything that looks like a private key or a ' +
      'seed phrase is refused with 400 KEY_MATERIAL_REFUSED before it is read further.',
    allOf: [
      anyOfRequired(['planId'], ['strategyId', 'owner', 'amountMicros']),
      anyOfRequired(['signedTransaction'], ['signedTx']),
    ],
  });
export type ExecuteRequest = z.input<typeof ExecuteRequest>;

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

export const HarvestRequest = z.strictObject({ execute: z.boolean().optional() }).meta({
  description:
    'Only `execute`; an empty object (or no body) is accepted. Amounts never come from the ' +
    'request: yield is read from the venue on chain.',
});

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

/** A share or rate in basis points: 0..10 000 (100 %); every `*Bps` input is bounded so. */
export const ShareBps = z.number().int().min(0).max(10_000);

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

export const UnavailableReasonCode = z.enum([
  'rpc_not_configured',
  'rpc_timeout',
  'rpc_error',
  'rpc_bad_response',
  'asset_not_configured',
  'no_standard_reader',
]);

export const BalanceLeg = z
  .object({
    asset: z.string().meta({ examples: ['USDC'] }),
    decimals: z.number().int().min(0),
    status: z.enum(['ok', 'unavailable']),
    amount: z.string().regex(/^\d+$/).nullable().meta({
      description: 'Base units (micros for USDC); null when unavailable. Never invented.',
    }),
    display: z.string().meta({
      description: "Decimal amount for people, or 'N/A' when unavailable.",
      examples: ['12.5', 'N/A'],
    }),
    reason: UnavailableReasonCode.optional(),
    detail: z.string().optional(),
  })
  .meta({ description: 'One asset of a wallet; a failed RPC read is N/A with a reason.' });

export const WalletBalanceDocument = z.object({
  chain: Chain,
  address: z.string().meta({ description: "The address in the chain's canonical form." }),
  complete: z.boolean().meta({ description: 'False when at least one leg is N/A.' }),
  legs: z.array(BalanceLeg),
  asOf: z.string(),
});
export type WalletBalanceDocument = z.infer<typeof WalletBalanceDocument>;

const SwapToken = z
  .string()
  .min(1)
  .max(128)
  .meta({
    description:
      "A token the service knows on the route's chain: its symbol (USDC, WETH, …) or its " +
      'address; an unknown token is a 400 naming the field.',
    examples: ['USDC', 'WETH'],
  });

/** A well-formed swap body for the document's examples: 1 USDC into `outputToken`. */
const swapExample = (owner: string, outputToken: string, chain: string) => ({
  owner,
  inputToken: 'USDC',
  outputToken,
  amountInMicros: '1000000',
  chain,
});

/** Swap plans: the owner's wallet sells `amountInMicros` of one token for another. */
export const SwapPlanRequest = z.strictObject({
  owner: z.string().min(1).max(128).meta({
    description: "The owner's wallet in the chain's own format; it signs and receives.",
  }),
  inputToken: SwapToken,
  outputToken: SwapToken.meta({
    description:
      "The token bought, on the route's chain (symbol or address); it must differ from " +
      'inputToken (the same token is a 400 naming outputToken).',
    examples: ['WETH', 'USDC'],
  }),
  amountInMicros: PositiveMicrosString.meta({
    description:
      'Amount of the input token in its base units (micros for USDC), 1..2^63 − 1, as a string.',
  }),
  slippageBps: SlippageBps.optional().meta({
    description:
      'Slippage bound in bps, an integer 0..500; absent: the default of GET /svc/fees (100). ' +
      'minAmountOutMicros = quote × (10000 − bps) / 10000.',
  }),
});
export type SwapPlanRequest = z.infer<typeof SwapPlanRequest>;

export const EvmSwapPlanRequest = SwapPlanRequest.extend({
  chain: z.enum(['base', 'arbitrum']).meta({ description: 'Base or Arbitrum.' }),
}).meta({ examples: [swapExample('0x52908400098527886e0f7030069857d2e4169ee7', 'WETH', 'base')] });
export type EvmSwapPlanRequest = z.infer<typeof EvmSwapPlanRequest>;

export const SolanaSwapPlanRequest = SwapPlanRequest.extend({
  chain: z.enum(['solana']).meta({ description: 'Solana (Jupiter routes Solana only).' }),
}).meta({
  examples: [swapExample('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', 'WSOL', 'solana')],
});
export type SolanaSwapPlanRequest = z.infer<typeof SolanaSwapPlanRequest>;
export const SuiSwapPlanRequest = SwapPlanRequest.extend({
  chain: z
    .enum(['sui'])
    .optional()
    .meta({ description: 'Sui (the only chain this route serves); may be left out.' }),
}).meta({
  examples: [
    swapExample('0x5f2b1d3c4e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e', 'SUI', 'sui'),
  ],
});
export type SuiSwapPlanRequest = z.infer<typeof SuiSwapPlanRequest>;

/** One call a gas-sponsor plan sizes when no stored plan is named (EVM only). */
export const GasSponsorCall = z.strictObject({
  to: z.string().min(1).max(128).meta({ description: 'The contract (or account) called.' }),
  data: z
    .string()
    .max(65_536)
    .regex(/^0x(?:[0-9a-fA-F]{2})*$/, { error: 'must be 0x-prefixed hex bytes' })
    .meta({ description: 'The calldata, 0x-prefixed hex.' }),
  value: NativeAmountString.optional().meta({ description: 'Wei sent with the call; default 0.' }),
});
export type GasSponsorCall = z.input<typeof GasSponsorCall>;

/**
 * POST /svc/gas-sponsor/plan: size the native gas `owner` needs for a stored plan's legs
 * (`planId`) or for calls given inline (`calls`, EVM) — exactly one of the two.
 */
export const GasSponsorRequest = z
  .strictObject({
    chain: Chain,
    owner: z.string().min(1).max(128).meta({
      description: "The wallet that pays the gas and signs, in the chain's own format.",
    }),
    planId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({
        description:
          'A stored plan (plan_ + 32 hex) on `chain` whose unsigned legs are sized; an unknown ' +
          'planId is a 400 naming the field.',
        examples: [EXAMPLE_PLAN_ID],
      }),
    calls: z.array(GasSponsorCall).min(1).max(8).optional().meta({
      description: 'EVM calls from `owner`, sized in order, when no planId is given.',
    }),
  })
  .refine((body) => (body.planId === undefined) !== (body.calls === undefined), {
    error: 'give exactly one of planId or calls',
    path: ['planId'],
  })
  .meta({
    ...oneOfRequired(['calls'], ['planId']),
    examples: [
      {
        chain: 'base',
        owner: EXAMPLE_EVM_ADDRESS,
        calls: [{ to: EXAMPLE_EVM_ADDRESS, data: '0x' }],
      },
    ],
  });
export type GasSponsorRequest = z.infer<typeof GasSponsorRequest>;

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

const EstimateDays = z
  .number()
  .int()
  .min(1)
  .max(3650)
  .meta({ description: 'Horizon in days (1..3650); default 365.' });
const ApyBasis = z.enum(['live', 'mean30d']).meta({
  description: 'Which APY to project from: the latest reading (default) or the 30-day mean.',
});
const EstimateOpportunityId = z
  .string()
  .min(1)
  .max(128)
  .meta({ description: 'svcop…, a bare venue id or form-<id>; every opportunity when absent.' });

export const EstimateRequest = z.strictObject({
  opportunityId: EstimateOpportunityId.optional(),
  amountMicros: PositiveMicrosString,
  days: EstimateDays.optional(),
  apyBasis: ApyBasis.optional(),
});

/** The same fields as query parameters (`days` arrives as text). */
export const EstimateQuery = EstimateRequest.extend({
  days: z.coerce.number().int().min(1).max(3650).pipe(EstimateDays).optional(),
});

export const DiscoverRequest = z.strictObject({
  chain: Chain.optional(),
  protocol: z.string().min(1).max(64).optional().meta({ description: 'A catalog protocol name.' }),
  asset: z.string().min(1).max(32).optional().meta({ description: 'e.g. USDC.' }),
  minApyBps: ShareBps.optional().meta({
    description: 'Keeps venues whose live APY is known and at least this.',
  }),
  minTvlUsd: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000_000)
    .optional()
    .meta({ description: 'Keeps venues whose TVL is known and at least this many USD.' }),
  ready: z.boolean().optional().meta({ description: 'Only venues ready (true) or not (false).' }),
  sort: DiscoverSort.optional().meta({ description: 'Default apy_desc (unknown APY last).' }),
  limit: z.number().int().min(1).max(200).optional().meta({ description: 'Default 50.' }),
});
export type DiscoverRequest = z.output<typeof DiscoverRequest>;

export const WebhookCreateRequest = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .meta({
      description:
        'Where deliveries are POSTed: https, a public host (private, loopback, link-local and local names are refused; checked again before every delivery). Redirects are not followed.',
      format: 'uri',
      // An address literal: a host name is resolved (and must be public) when the hook is made.
      examples: ['https://1.1.1.1/yield-router/webhook'],
    }),
  eventTypes: z
    .array(WebhookEventType)
    .min(1)
    .max(WebhookEventType.options.length)
    .refine((types) => new Set(types).size === types.length, { error: 'must not repeat a type' })
    .meta({ uniqueItems: true }),
  description: z.string().max(256).optional(),
});
export type WebhookCreateRequest = z.output<typeof WebhookCreateRequest>;

/** A subscription id in a path: `whk_` + 32 hex (anything else is 400, never a lookup). */
export const WebhookIdParams = z.strictObject({
  id: z
    .string()
    .max(36)
    .regex(/^whk_[0-9a-f]{32}$/, { error: 'must be a webhook id (whk_ + 32 hex)' }),
});

export const WebhookEventsQuery = z.strictObject({
  cursor: z.string().max(256).optional().meta({ description: 'nextCursor of the previous page.' }),
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Default 50.' }),
  type: WebhookEventType.optional(),
  wallet: WalletAddress.optional().meta({ description: "One of the key's wallets." }),
});

/** The cage's six actions, in the contract's `Action` order; nothing else exists. */
export const CageAction = z.enum(['ROUTE', 'EXIT', 'REBALANCE', 'HARVEST', 'COMPOUND', 'AUTOPAY']);
export type CageAction = z.infer<typeof CageAction>;

const CageAddress = z
  .string()
  .max(42)
  .regex(/^0x[0-9a-fA-F]{40}$/, { error: 'must be an EVM address (0x + 40 hex)' })
  .meta({
    description: 'An EVM address: 0x + 40 hex, all one case or EIP-55 checksummed (else 400).',
    examples: [EXAMPLE_EVM_ADDRESS],
  });

/** Which address fields each action takes (the others must be absent). */
export const CAGE_ACTION_FIELDS = {
  ROUTE: ['venue'],
  EXIT: ['venue', 'payee'],
  REBALANCE: ['fromVenue', 'toVenue'],
  HARVEST: ['venue', 'payee'],
  COMPOUND: ['venue', 'payee'],
  AUTOPAY: ['venue', 'payee'],
} as const satisfies Record<CageAction, readonly string[]>;
const CAGE_REQUIRED: Record<CageAction, readonly string[]> = {
  ...CAGE_ACTION_FIELDS,
  EXIT: ['venue'],
  HARVEST: ['venue'],
  COMPOUND: ['venue'],
};

const cagePrepareFields = {
  kind: CageAction,
  venue: CageAddress.optional().meta({ description: 'The venue (ERC-4626 vault) acted on.' }),
  fromVenue: CageAddress.optional().meta({ description: 'REBALANCE: the venue money leaves.' }),
  toVenue: CageAddress.optional().meta({ description: 'REBALANCE: the venue money enters.' }),
  payee: CageAddress.optional().meta({
    description:
      'AUTOPAY: an allowlisted payee. EXIT, HARVEST, COMPOUND: the destination if given, which ' +
      'must be the owner (the lock refuses any other).',
  }),
  amountMicros: PositiveMicrosString,
};

function checkCageFields(
  request: { kind: CageAction } & Partial<Record<string, unknown>>,
  context: z.RefinementCtx,
): void {
  const allowed: readonly string[] = CAGE_ACTION_FIELDS[request.kind];
  for (const field of ['venue', 'fromVenue', 'toVenue', 'payee']) {
    const present = request[field] !== undefined;
    if (present && !allowed.includes(field)) {
      context.addIssue({ code: 'custom', path: [field], message: `not taken by ${request.kind}` });
    } else if (!present && CAGE_REQUIRED[request.kind].includes(field)) {
      context.addIssue({ code: 'custom', path: [field], message: `${request.kind} needs it` });
    }
  }
}

/** checkCageFields as the document states it: per kind, the fields required and refused. */
const CAGE_FIELD_RULES = requiredPerValue('kind', CAGE_REQUIRED, CAGE_ACTION_FIELDS, [
  'venue',
  'fromVenue',
  'toVenue',
  'payee',
]);

/** A cage action to prepare for the wallet in the path. */
export const WalletCagePrepareRequest = z
  .strictObject(cagePrepareFields)
  .superRefine(checkCageFields)
  .meta({ allOf: CAGE_FIELD_RULES });
export type WalletCagePrepareRequest = z.output<typeof WalletCagePrepareRequest>;

/** A cage action to prepare for `wallet` (the owner who signs). */
export const CagePrepareRequest = z
  .strictObject({ wallet: CageAddress, ...cagePrepareFields })
  .superRefine(checkCageFields)
  .meta({ allOf: CAGE_FIELD_RULES });
export type CagePrepareRequest = z.output<typeof CagePrepareRequest>;

/** The whole policy the owner signs; it replaces the one on chain. */
export const CagePolicyRequest = z.strictObject({
  enabled: z.boolean(),
  skimBps: z.number().int().min(0).max(1000).meta({ description: 'At most 1000 (10 %).' }),
  agent: CageAddress.nullable()
    .optional()
    .meta({ description: 'May act (never change the policy) for the owner; null for none.' }),
  venues: z.array(CageAddress).max(16),
  payees: z.array(CageAddress).max(16),
});
export type CagePolicyRequest = z.output<typeof CagePolicyRequest>;

export const SettleLegRequest = z.strictObject({
  txId: z.string().min(1).max(256),
});

export const HarvestBatchRequest = z.strictObject({
  chain: Chain.optional(),
  pageSize: z.number().int().min(1).max(500).optional(),
});

export const HarvestBatchDocument = z
  .strictObject({
    schemaVersion: z.literal('harvest-plan.v1'),
    chain: Chain.nullable(),
    wallets: z.number().int().meta({ description: 'Wallets with a staked position in the page.' }),
    positions: z.strictObject({
      harvested: z.number().int(),
      noYield: z.number().int(),
      unavailable: z.number().int(),
    }),
    grossYieldMicros: MicrosOut,
    feeMicros: MicrosOut.meta({ description: 'Skim plus profit fee, to protocol fees.' }),
    netYieldMicros: MicrosOut,
    errors: z.array(z.strictObject({ wallet: z.string(), message: z.string() })),
    nextCursor: z.string().nullable().meta({
      description:
        'The last wallet of a full page: pass it as `after` for the next; null at the end.',
    }),
    startedAt: z.string(),
    finishedAt: z.string(),
  })
  .meta({ description: 'One page of the permissionless harvest over staked wallets.' });
export type HarvestBatchDocument = z.infer<typeof HarvestBatchDocument>;

/** Response of a route whose shape is defined when its handler lands. */
export const OpenDocument = z.looseObject({});
