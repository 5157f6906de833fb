import type { BridgeLane, Chain } from '@yieldrouter/schemas';
import type { CctpOtherSide } from './cctpChainSides';
import type { BridgesConfig } from './cctpSettings';

const EVM = ['base', 'arbitrum'] as const;

/**
 * The lanes to and from the configured non-EVM chains: each with every EVM chain whose CCTP
 * contracts are set, both ways, and between each other (Solana ↔ Sui).
 */
export function cctpOtherLanes(
  others: ReadonlyMap<Chain, CctpOtherSide>,
  bridges: BridgesConfig,
): BridgeLane[] {
  const ends: Chain[] = [...EVM.filter((chain) => bridges.evm[chain]), ...others.keys()];
  return [...others.keys()].flatMap((other) =>
    ends
      .filter((end) => end !== other)
      .flatMap((end) => [
        { sourceChain: other, destChain: end },
        ...(others.has(end) ? [] : [{ sourceChain: end, destChain: other }]),
      ]),
  );
}
