import type { Chain, ChainChoice, Opportunity } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { byApyDesc } from '../venues/rankOpportunities';
import { chainOfAddress } from './walletAddress';

/** Chains whose format the address has: an EVM address is both Base and Arbitrum. */
export function chainsOfAddress(adapters: ChainAdapters, address: string): Chain[] {
  const chain = chainOfAddress(adapters, address);
  if (chain === 'base' || chain === 'arbitrum') return ['base', 'arbitrum'];
  return chain ? [chain] : [];
}

export interface RouteChainRequest {
  readonly chain?: Chain | undefined;
  readonly preferredChains?: readonly Chain[] | undefined;
}

/**
 * The chain a route (or its preview) runs on, and how it was chosen: the body's `chain`; else
 * the only chain the wallet address fits; else the first of `preferredChains` it fits; else the
 * chain of the best ready opportunity it fits. A wallet that fits no chain (a label) must name
 * one: 400 naming `body.chain`.
 */
export function chooseRouteChain(
  adapters: ChainAdapters,
  opportunities: readonly Opportunity[],
  address: string,
  request: RouteChainRequest,
): { chain: Chain; chainChosenBy: ChainChoice } {
  if (request.chain) return { chain: request.chain, chainChosenBy: 'request' };
  const fits = chainsOfAddress(adapters, address);
  const [only] = fits;
  if (only === undefined) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.chain: required when the wallet (${address}) is not a chain address`,
      'body.chain',
    );
  }
  if (fits.length === 1) return { chain: only, chainChosenBy: 'address' };
  const preferred = request.preferredChains?.find((chain) => fits.includes(chain));
  if (preferred) return { chain: preferred, chainChosenBy: 'preferred_chains' };
  const best = opportunities
    .filter((entry) => entry.ready && fits.includes(entry.chain))
    .sort(byApyDesc)[0];
  if (best) return { chain: best.chain, chainChosenBy: 'best_opportunity' };
  throw new EngineError(
    'BAD_REQUEST',
    `body.chain: the wallet fits ${fits.join(' and ')} and none has a ready opportunity; name the chain`,
    'body.chain',
  );
}
