import type { ChainAdapters } from '@yieldrouter/engine';
import { readWalletBalance } from '@yieldrouter/engine';
import type { Chain } from '@yieldrouter/schemas';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import { ApiError } from '../http/apiError';
import type { Handlers } from '../http/mountRoutes';

export interface ChainHandlerDeps {
  readonly adapters: ChainAdapters;
}

/** Bad adapter input becomes a 400 naming the request field (`query.address`). */
export async function withChainInput<T>(location: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidChainInputError) {
      throw new ApiError('BAD_REQUEST', `${location}.${error.message}`, {
        field: `${location}.${error.field}`,
      });
    }
    throw error;
  }
}

/** Wallet balances per chain, read through the adapters; failed legs are N/A. */
export function chainHandlers({ adapters }: ChainHandlerDeps): Handlers {
  const balance = (chain: Chain) => async (context: { query: { address: string } }) => ({
    status: 200,
    body: await withChainInput('query', () =>
      readWalletBalance(adapters[chain], context.query.address),
    ),
  });
  return {
    getSuiWalletBalance: balance('sui'),
    getSolanaWalletBalance: balance('solana'),
    getBaseWalletBalance: balance('base'),
    getArbitrumWalletBalance: balance('arbitrum'),
  };
}
