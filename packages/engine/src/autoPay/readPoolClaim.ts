import { readTrackedPositions } from '@yieldrouter/ledger';
import type { AutoPayPool, Books } from '@yieldrouter/ledger';
import type { ChainAdapters } from '../chains/chainsConfig';
import type { VenueConfig } from '../venues/venueConfig';
import { readPositionOnChain } from '../wallet/measurePosition';

/** What the owner's tracked shares of a position are worth on chain now (fees retained aside). */
export type PoolClaim =
  | { readonly status: 'ok'; readonly claimMicros: bigint }
  | { readonly status: 'unavailable'; readonly detail: string };

export type PoolClaimReader = (pool: AutoPayPool) => Promise<PoolClaim>;

/**
 * Reads, at most once per position, what the shares our legs minted are worth at the venue's
 * share price less the fees the books retain in them: the most an exit can pay the owner. A
 * loss the books have not seen yet (they book it at the exit) shows here, so a run never counts
 * on value the venue no longer holds. A position that predates share tracking is valued by its
 * staked balance.
 */
export function poolClaimReader(
  db: Books,
  adapters: ChainAdapters,
  venues: VenueConfig,
  wallet: string,
): PoolClaimReader {
  const read = new Map<string, Promise<PoolClaim>>();
  const claimOf = async (pool: AutoPayPool): Promise<PoolClaim> => {
    const position = (await readTrackedPositions(db, [wallet])).find(
      (entry) => entry.chain === pool.chain && entry.opportunityId === pool.opportunityId,
    );
    if (!position || position.shares === 0n) return { status: 'ok', claimMicros: 0n };
    if (!position.sharesKnown) return { status: 'ok', claimMicros: position.stakedMicros };
    const reading = await readPositionOnChain({ adapters, venues }, position);
    if (reading.status !== 'ok') return { status: 'unavailable', detail: reading.detail };
    const claimMicros = reading.sharesValueMicros - position.feesRetainedMicros;
    return { status: 'ok', claimMicros: claimMicros > 0n ? claimMicros : 0n };
  };
  return (pool) => {
    const key = `${pool.chain}/${pool.opportunityId}`;
    let claim = read.get(key);
    if (!claim) {
      claim = claimOf(pool);
      read.set(key, claim);
    }
    return claim;
  };
}
