import type { SolanaInstructionJson, SolanaSwapInstructions } from '@yieldrouter/schemas';
import { JupiterQuoteResponse, JupiterSwapInstructionsResponse } from './jupiterResponses';
import type { JupiterInstruction } from './jupiterResponses';
import type { SwapQuoteFacts, SwapQuoteRequest, SwapQuoteUnavailable } from './swapQuoteSource';

const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

const unusable = (why: string): SwapQuoteUnavailable => ({
  status: 'quote_unavailable',
  detail: `Jupiter answered an unusable quote: ${why}`,
});

const wrongShape = (
  what: string,
  error: { issues: readonly { path: PropertyKey[]; message: string }[] },
) => {
  const issue = error.issues[0];
  return {
    status: 'quote_unavailable' as const,
    detail: `Jupiter answered ${what} of the wrong shape (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'})`,
  };
};

/**
 * A decimal fraction as Jupiter writes `priceImpactPct` (`"0.0123"` is 1.23%) in bps, rounded
 * away from zero, without floats; undefined past 1,000,000 bps (nonsense).
 */
export function priceImpactBpsOf(text: string): number | undefined {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
  let bps = BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0').slice(0, 4));
  if (/[1-9]/.test(fraction.slice(4))) bps += 1n;
  if (bps > 1_000_000n) return undefined;
  return negative && bps !== 0n ? -Number(bps) : Number(bps);
}

/** What the swap sells: the input net of the service fee, which is its own transfer. */
export const jupiterSwapAmount = (request: SwapQuoteRequest) =>
  request.amountInMicros - request.serviceFee.amountMicros;

/**
 * A Jupiter quote checked against what was asked: the same mints, amount (the input net of the
 * service fee), ExactIn and slippage; no platform fee (none was asked); a threshold no higher
 * than the amount out; route fees in the input or the output mint only (one side). Anything
 * else is `quote_unavailable`.
 */
export function readJupiterQuote(
  body: unknown,
  request: SwapQuoteRequest,
  expiresAt: Date,
): Omit<SwapQuoteFacts, 'source'> | SwapQuoteUnavailable {
  const parsed = JupiterQuoteResponse.safeParse(body);
  if (!parsed.success) return wrongShape('a quote', parsed.error);
  const quote = parsed.data;
  const input = request.inputToken.address;
  const output = request.outputToken.address;
  if (quote.inputMint !== input) return unusable('another input mint');
  if (quote.outputMint !== output) return unusable('another output mint');
  if (quote.swapMode !== 'ExactIn') return unusable(`swap mode ${quote.swapMode}`);
  if (BigInt(quote.inAmount) !== jupiterSwapAmount(request)) return unusable('another amount in');
  if (quote.slippageBps !== request.slippageBps) return unusable('another slippage');
  if (quote.platformFee && quote.platformFee.amount !== '0') {
    return unusable('a platform fee nobody asked for');
  }
  const amountOutMicros = BigInt(quote.outAmount);
  const minAmountOutMicros = BigInt(quote.otherAmountThreshold);
  if (minAmountOutMicros > amountOutMicros) return unusable('otherAmountThreshold above outAmount');
  let inputFees = 0n;
  let outputFees = 0n;
  for (const { swapInfo } of quote.routePlan) {
    if (swapInfo.feeMint === input) inputFees += BigInt(swapInfo.feeAmount);
    else if (swapInfo.feeMint === output) outputFees += BigInt(swapInfo.feeAmount);
    else if (swapInfo.feeAmount !== '0') return unusable('a route fee in a third token');
  }
  if (inputFees > 0n && outputFees > 0n) return unusable('route fees in both tokens');
  const priceImpactBps = priceImpactBpsOf(quote.priceImpactPct);
  if (priceImpactBps === undefined) return unusable(`price impact ${quote.priceImpactPct}`);
  return {
    status: 'ok',
    amountOutMicros,
    minAmountOutMicros,
    poolFee:
      inputFees > 0n
        ? { amountMicros: inputFees, side: 'input' }
        : outputFees > 0n
          ? { amountMicros: outputFees, side: 'output' }
          : null,
    route: quote.routePlan.map(({ swapInfo }) => swapInfo.label ?? swapInfo.ammKey),
    priceImpactBps,
    expiresAt,
  };
}

const toJson = (instruction: JupiterInstruction): SolanaInstructionJson => ({
  programId: instruction.programId,
  accounts: instruction.accounts.map(({ pubkey, isSigner, isWritable }) => ({
    pubkey,
    isSigner,
    isWritable,
  })),
  data: instruction.data,
});

/**
 * Jupiter's swap instructions, let through only when the owner signs nothing but what a swap
 * needs: compute-budget instructions, setup that only creates associated token accounts
 * (`wrapAndUnwrapSol: false` is asked, so no SOL moves), the swap on `programId`, no cleanup,
 * no token ledger or other instructions, and no signer but the owner. Else `quote_unavailable`.
 */
export function readJupiterSwapInstructions(
  body: unknown,
  expected: { readonly owner: string; readonly programId: string },
): SolanaSwapInstructions | SwapQuoteUnavailable {
  const parsed = JupiterSwapInstructionsResponse.safeParse(body);
  if (!parsed.success) return wrongShape('swap instructions', parsed.error);
  const answer = parsed.data;
  const all = [
    ...answer.computeBudgetInstructions,
    ...answer.setupInstructions,
    answer.swapInstruction,
  ];
  const foreignSigner = all
    .flatMap((instruction) => instruction.accounts)
    .find((account) => account.isSigner && account.pubkey !== expected.owner);
  if (foreignSigner) return unusable(`a signer other than the owner (${foreignSigner.pubkey})`);
  if (
    answer.computeBudgetInstructions.some((entry) => entry.programId !== COMPUTE_BUDGET_PROGRAM)
  ) {
    return unusable('a compute-budget instruction of another program');
  }
  if (answer.setupInstructions.some((entry) => entry.programId !== ASSOCIATED_TOKEN_PROGRAM)) {
    return unusable('a setup instruction that does more than create token accounts');
  }
  if (answer.swapInstruction.programId !== expected.programId) {
    return unusable(`a swap on ${answer.swapInstruction.programId}, not ${expected.programId}`);
  }
  if (answer.cleanupInstruction || answer.tokenLedgerInstruction) {
    return unusable('a cleanup or token-ledger instruction nobody asked for');
  }
  if ((answer.otherInstructions ?? []).length > 0) return unusable('other instructions');
  return {
    computeBudget: answer.computeBudgetInstructions.map(toJson),
    setup: answer.setupInstructions.map(toJson),
    swap: toJson(answer.swapInstruction),
    cleanup: [],
    addressLookupTables: answer.addressLookupTableAddresses,
  };
}
