import type { ChainsConfig, OpportunitySnapshot, OpportunitySnapshots } from '@yieldrouter/engine';
import type { ChainEnablement } from '@yieldrouter/schemas';
import { Chain } from '@yieldrouter/schemas';
import type { Handlers } from '../http/mountRoutes';
import { chainProfile, marketStats, networkRow, possible } from './peerDocuments';
import { venueApyTable } from './venueApyTable';

export interface PeerDocumentHandlerDeps {
  readonly snapshots: OpportunitySnapshots;
  readonly enablement: readonly ChainEnablement[];
  readonly chains: ChainsConfig;
  /** SVC_<CHAIN>_TREASURY per chain (null: unset). */
  readonly treasuries: Readonly<Record<Chain, string | null>>;
  readonly protocolYieldSkimBps: number;
}

/** Served with every snapshot document: clients may cache, and must revalidate (ETag). */
const REVALIDATE = 'public, no-cache';
const ok = <T>(body: T) => ({ status: 200, body });

/** The documents peer (v1) clients read (issue 41): configuration and the snapshot only. */
export function peerDocumentHandlers(deps: PeerDocumentHandlerDeps): Handlers {
  const { chains, enablement } = deps;
  /** A document built once per snapshot, served with its ETag (304 on a match). */
  const cached = async <T extends object>(key: string, build: (view: OpportunitySnapshot) => T) => {
    const { body, etag } = (await deps.snapshots.current()).derive(`peer:${key}`, build);
    return { status: 200, body, headers: { ETag: etag, 'Cache-Control': REVALIDATE } };
  };
  const network = {
    schemaVersion: 'svc-network.v1' as const,
    chains: Chain.options.map((chain) => networkRow(chains, enablement, chain)),
  };
  const treasury = {
    schemaVersion: 'svc-treasury.v1' as const,
    protocolYieldSkimBps: deps.protocolYieldSkimBps,
    chains: Chain.options.map((chain) => {
      const address = deps.treasuries[chain];
      return {
        chain,
        address,
        unavailable:
          address === null
            ? {
                code: 'not_configured',
                message: `SVC_${chain.toUpperCase()}_TREASURY is not set`,
              }
            : null,
        balancePath:
          address === null
            ? null
            : `/api/v1/svc/${chain}/wallet-balance?address=${encodeURIComponent(address)}`,
      };
    }),
  };
  return {
    getSolanaApys: () =>
      cached('solana-apys', ({ opportunities, asOf }) =>
        venueApyTable(
          opportunities.filter((entry) => entry.chain === 'solana'),
          asOf,
        ),
      ),
    getTreasury: () => ok(treasury),
    getNetwork: () => ok(network),
    getPossible: () =>
      cached('possible', ({ opportunities, asOf }) => possible(opportunities, enablement, asOf)),
    getMarketStats: () =>
      cached('market-stats', ({ opportunities, asOf }) => marketStats(opportunities, asOf)),
    getBaseProfile: () =>
      cached('base', ({ opportunities }) =>
        chainProfile('base', opportunities, enablement, chains),
      ),
    getArbitrumProfile: () =>
      cached('arbitrum', ({ opportunities }) =>
        chainProfile('arbitrum', opportunities, enablement, chains),
      ),
  };
}
