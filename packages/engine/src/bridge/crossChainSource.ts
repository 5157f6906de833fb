import type { Chain } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import type { BridgeFirst } from './bridgeRequiredBlocker';

/** Where a deposit or route says its funds are, when that is not the plan's chain. */
export interface CrossChainRequest {
  readonly sourceChain?: Chain | undefined;
  readonly sourceAddress?: string | undefined;
  /** Bridge first (`bridge`, or a route's `autoBridge`); otherwise a cross-chain plan blocks. */
  readonly bridge?: boolean | undefined;
}

/**
 * The bridge a plan on `destChain` needs first, or undefined when the funds are on that chain
 * already (no `sourceChain`, or the same one: `bridge` is then ignored — nothing to bridge).
 * The source address defaults to the owner's (the same address on EVM chains); one that is not
 * an address on the source chain is a 400 naming `body.sourceAddress`.
 */
export function crossChainSource(
  adapters: ChainAdapters,
  request: CrossChainRequest,
  destination: { readonly chain: Chain; readonly owner: string; readonly amountMicros: bigint },
): BridgeFirst | undefined {
  const { sourceChain } = request;
  if (sourceChain === undefined || sourceChain === destination.chain) return undefined;
  const asked = request.sourceAddress ?? destination.owner;
  const sourceAddress = adapters[sourceChain].normalizeAddress(asked);
  if (!sourceAddress) {
    throw new EngineError(
      'BAD_REQUEST',
      `body.sourceAddress: ${asked} is not an address on ${sourceChain}` +
        (request.sourceAddress === undefined ? " (the owner's; send sourceAddress)" : ''),
      'body.sourceAddress',
    );
  }
  return {
    sourceChain,
    destChain: destination.chain,
    amountMicros: destination.amountMicros,
    sourceAddress,
    destinationAddress: destination.owner,
  };
}
