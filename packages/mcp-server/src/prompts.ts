import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';

export const BEST_YIELD_PROMPT = {
  name: 'prepare-best-usdc-deposit',
  title: 'Find the best ready yield for my USDC on <chain> and prepare a deposit',
  description:
    'Finds the ready USDC opportunity with the best live APY on one chain and prepares a ' +
    'deposit plan for the owner to sign.',
  arguments: [
    { name: 'chain', description: 'sui, solana, base or arbitrum', required: true },
    {
      name: 'amountMicros',
      description: 'Amount in integer micros ("1000000" is 1 USDC)',
      required: true,
    },
    { name: 'owner', description: "The owner's public address on that chain", required: true },
  ],
} as const;

/** The prompt's one user message: the tools to chain, in order, and the rules on the way. */
export function bestYieldPrompt(args: Readonly<Record<string, string>>): GetPromptResult {
  const chain = args['chain'] ?? '<chain>';
  const amount = args['amountMicros'] ?? '<amountMicros>';
  const owner = args['owner'] ?? '<owner address>';
  const text = [
    `Find the best ready yield for my USDC on ${chain} and prepare a deposit of ${amount} micros`,
    `for the owner ${owner}. Steps:`,
    '1. Call `listOpportunities`. Keep opportunities with chain = ' +
      `"${chain}", asset USDC, ready = true and writeReady = true.`,
    '2. Rank them by grossApyBps (null means unknown: never treat it as 0 or guess it; rank ' +
      'those last). If none is left, say so and stop.',
    '3. Check minDepositMicros of the best one against the amount, and read the fees from the ' +
      '`getFees` tool (or the yieldrouter://fees resource) instead of assuming rates.',
    '4. Call `prepareDepositPlan` with its opportunityId (as returned, never constructed), ' +
      `amountMicros "${amount}" (an integer string) and owner "${owner}".`,
    '5. If the plan is blocked, explain each blocker (yieldrouter://errors has the meanings) ' +
      'and stop. If it is prepared, show the planId, the legs and the fee, and say plainly ' +
      'that no money has moved: the owner must sign the legs with their own wallet.',
    'Never ask for or accept a private key or seed phrase.',
  ].join('\n');
  return {
    description: BEST_YIELD_PROMPT.description,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
