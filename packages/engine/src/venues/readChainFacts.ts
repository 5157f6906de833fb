import type { VenueChainReadInput } from '@yieldrouter/ledger';
import type { Chain, VenueChainFacts, VenueStandard } from '@yieldrouter/schemas';
import { errorMessage } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { venueOnChain } from './venueConfig';
import type { VenueConfig } from './venueConfig';

/** The stored shape of a chain read that gave nothing: every figure null, with the reason. */
export function chainFactsUnknown(reason: string): VenueChainFacts {
  return {
    nativeTvlUnits: null,
    maxDepositUnits: null,
    totalCapUnits: null,
    capUsedUnits: null,
    underlying: null,
    receipt: null,
    reason,
  };
}

/**
 * Reads every venue on its chain (TVL in native units, deposit caps, tokens) through the
 * adapter's `readVenueFacts`, in parallel; a chain without that reader, a failed read or an
 * adapter that throws is stored as unknown with its reason (fail-closed, never a guess). Runs in
 * the discovery refresh, so listing requests never wait on a chain.
 */
export async function readChainFacts(
  adapters: ChainAdapters,
  config: VenueConfig,
  venues: readonly {
    readonly id: string;
    readonly chain: string;
    readonly standard: string;
  }[],
  now: () => Date,
): Promise<VenueChainReadInput[]> {
  return Promise.all(
    venues.map(async (row): Promise<VenueChainReadInput> => {
      const chain = row.chain as Chain;
      const adapter = adapters[chain];
      const venue = venueOnChain(config, {
        venueId: row.id,
        chain,
        standard: row.standard as VenueStandard,
      });
      let facts: VenueChainFacts;
      if (!adapter?.readVenueFacts) {
        facts = chainFactsUnknown(`no on-chain reader for ${chain} venues yet`);
      } else {
        try {
          const reading = await adapter.readVenueFacts(venue);
          facts =
            reading.status === 'ok'
              ? {
                  nativeTvlUnits: reading.nativeTvlUnits,
                  maxDepositUnits: reading.maxDepositUnits,
                  totalCapUnits: reading.totalCapUnits,
                  capUsedUnits: reading.capUsedUnits,
                  underlying: reading.underlying,
                  receipt: reading.receipt,
                  reason: reading.reason,
                }
              : chainFactsUnknown(`${reading.reason}: ${reading.detail}`);
        } catch (error) {
          facts = chainFactsUnknown(`chain read failed: ${errorMessage(error).slice(0, 200)}`);
        }
      }
      return { venueId: row.id, facts, observedAt: now() };
    }),
  );
}
