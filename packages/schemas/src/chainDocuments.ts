import { z } from 'zod';
import { Chain } from './chains';

// The chain domain's answers: a wallet's balances read from the chain.

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
