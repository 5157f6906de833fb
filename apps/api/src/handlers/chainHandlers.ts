import type { ChainAdapters } from '@yieldrouter/engine';
import { readWalletBalance } from '@yieldrouter/engine';
import type { Chain } from '@yieldrouter/schemas';
import type { Handlers } from '../http/mountRoutes';

export interface ChainHandlerDeps {
  readonly adapters: ChainAdapters;
}

/** Wallet balances per chain, read through the adapters; failed legs are N/A. */
export function chainHandlers({ adapters }: ChainHandlerDeps): Handlers {
  const balance = (chain: Chain) => async (context: { query: { address: string } }) => ({
    status: 200,
    // A malformed address is 400 naming query.address (mountRoutes maps the adapter's refusal).
    body: await readWalletBalance(adapters[chain], context.query.address),
  });
  return {
    getSuiWalletBalance: balance('sui'),
    getSolanaWalletBalance: balance('solana'),
    getBaseWalletBalance: balance('base'),
    getArbitrumWalletBalance: balance('arbitrum'),
  };
}
