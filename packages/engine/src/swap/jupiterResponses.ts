import { z } from 'zod';

const BaseUnits = z.string().regex(/^(0|[1-9][0-9]*)$/);
const Pubkey = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

/**
 * The part of a Jupiter Swap API v1 quote (`GET /swap/v1/quote`) the service reads; other
 * fields are let through unread. The whole object goes back to `/swap-instructions` as sent.
 */
export const JupiterQuoteResponse = z.looseObject({
  inputMint: Pubkey,
  inAmount: BaseUnits,
  outputMint: Pubkey,
  outAmount: BaseUnits,
  otherAmountThreshold: BaseUnits,
  swapMode: z.enum(['ExactIn', 'ExactOut']),
  slippageBps: z.number().int(),
  platformFee: z.looseObject({ amount: BaseUnits, feeBps: z.number().int() }).nullable().optional(),
  /** A decimal fraction as text (`"0.0012"` is 0.12%). */
  priceImpactPct: z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/),
  routePlan: z
    .array(
      z.looseObject({
        swapInfo: z.looseObject({
          ammKey: Pubkey,
          label: z.string().optional(),
          inputMint: Pubkey,
          outputMint: Pubkey,
          inAmount: BaseUnits,
          outAmount: BaseUnits,
          feeAmount: BaseUnits,
          feeMint: Pubkey,
        }),
        percent: z.number().int().min(0).max(100).nullable().optional(),
      }),
    )
    .min(1),
  contextSlot: z.number().int().nonnegative().optional(),
});
export type JupiterQuoteResponse = z.infer<typeof JupiterQuoteResponse>;

export const JupiterInstruction = z.looseObject({
  programId: Pubkey,
  accounts: z.array(
    z.looseObject({ pubkey: Pubkey, isSigner: z.boolean(), isWritable: z.boolean() }),
  ),
  data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
export type JupiterInstruction = z.infer<typeof JupiterInstruction>;

/** The part of `POST /swap/v1/swap-instructions` the service reads. */
export const JupiterSwapInstructionsResponse = z.looseObject({
  tokenLedgerInstruction: JupiterInstruction.nullable().optional(),
  computeBudgetInstructions: z.array(JupiterInstruction),
  setupInstructions: z.array(JupiterInstruction),
  swapInstruction: JupiterInstruction,
  cleanupInstruction: JupiterInstruction.nullable().optional(),
  otherInstructions: z.array(JupiterInstruction).optional(),
  addressLookupTableAddresses: z.array(Pubkey),
});
export type JupiterSwapInstructionsResponse = z.infer<typeof JupiterSwapInstructionsResponse>;

/** Jupiter's error body (`{ error, errorCode }`); `COULD_NOT_FIND_ANY_ROUTE` and kin: no route. */
export const JupiterErrorResponse = z.looseObject({
  error: z.string().optional(),
  errorCode: z.string().optional(),
});
