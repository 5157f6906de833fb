import type { Cages } from '@yieldrouter/engine';
import {
  describeCage,
  prepareCageAction,
  prepareCagePolicy,
  readWalletCage,
} from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';

export interface CageHandlerDeps {
  readonly cages: Cages;
}

/**
 * The Base and Arbitrum cage: what it allows, the wallet's on-chain policy, and owner-signed
 * plans (policy changes and the six actions). Nothing is stored and nothing is sent.
 */
export function cageHandlers({ cages }: CageHandlerDeps): Handlers {
  return {
    getBaseCage: () => ({ status: 200, body: describeCage(cages.base) }),
    getArbitrumCage: () => ({ status: 200, body: describeCage(cages.arbitrum) }),
    getWalletBaseCage: async ({ params }) => ({
      status: 200,
      body: await readWalletCage(cages.base, params.address),
    }),
    getWalletArbitrumCage: async ({ params }) => ({
      status: 200,
      body: await readWalletCage(cages.arbitrum, params.address),
    }),
    setWalletBaseCagePolicy: ({ params, body }) => ({
      status: 200,
      body: prepareCagePolicy({ cage: cages.base, wallet: params.address, request: body }),
    }),
    setWalletArbitrumCagePolicy: ({ params, body }) => ({
      status: 200,
      body: prepareCagePolicy({ cage: cages.arbitrum, wallet: params.address, request: body }),
    }),
    prepareWalletBaseCageAction: async ({ params, body }) => ({
      status: 200,
      body: await prepareCageAction({
        cage: cages.base,
        wallet: params.address,
        walletField: 'params.address',
        request: body,
      }),
    }),
    prepareWalletArbitrumCageAction: async ({ params, body }) => ({
      status: 200,
      body: await prepareCageAction({
        cage: cages.arbitrum,
        wallet: params.address,
        walletField: 'params.address',
        request: body,
      }),
    }),
    prepareArbitrumCageAction: async ({ body: { wallet, ...request } }) => ({
      status: 200,
      body: await prepareCageAction({
        cage: cages.arbitrum,
        wallet,
        walletField: 'body.wallet',
        request,
      }),
    }),
  };
}
