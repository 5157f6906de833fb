import { z } from 'zod';
import { Chain } from './chains';
import { oneOfRequired } from './crossFieldRules';
import { NativeAmountString, PositiveMicrosString } from './money';
import { EXAMPLE_EVM_ADDRESS, EXAMPLE_PLAN_ID, SlippageBps } from './params';

// The swap domain's requests: swap plans on each chain and the gas-sponsor plan.

const SwapToken = z
  .string()
  .min(1)
  .max(128)
  .meta({
    description:
      "A token the service knows on the route's chain: its symbol (USDC, WETH, …) or its " +
      'address; an unknown token is a 400 naming the field. The native token (SOL on Solana, ' +
      'ETH or 0xEeee… on Base and Arbitrum) is taken as inputToken: the plan wraps it first ' +
      '(inputToken WSOL / WETH in the answer; EVM WETH.deposit() paying the amount, Solana ' +
      'the lamports into the wrapped SOL account and SyncNative), a wrap leg settled from its ' +
      'receipt, then swaps the wrapped token.',
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
      'inputToken (the same token is a 400 naming outputToken). The native token (SOL, ETH, ' +
      '0xEeee…): the plan swaps into the wrapped token (outputToken WSOL / WETH in the answer) ' +
      "and adds an unwrap leg (EVM: WETH.withdraw of the swap's minimum out; Solana: the " +
      'close of the wrapped SOL account), settled from its receipt.',
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
