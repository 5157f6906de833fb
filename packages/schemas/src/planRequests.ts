import { z } from 'zod';
import { Chain } from './chains';
import { anyOfRequired } from './crossFieldRules';
import { PositiveMicrosString } from './money';
import { EXAMPLE_PLAN_ID, SlippageBps } from './params';

// The plan domain's requests: deposit, withdraw, execute and settle a leg of a plan.

/** What a cross-asset route or deposit adds: how much the swap into USDC may slip. */
export const crossAssetFields = {
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
export const crossChainFields = {
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

export const SettleLegRequest = z.strictObject({
  txId: z.string().min(1).max(256),
});
