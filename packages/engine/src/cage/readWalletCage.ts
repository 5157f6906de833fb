import type { EvmCage } from '@yieldrouter/chain-evm';
import { formatMicros } from '@yieldrouter/schemas';
import type { WalletCageDocument } from '@yieldrouter/schemas';
import { cageUnavailable } from './cageCatalog';
import { cageWallet } from './cageWallet';

/**
 * GET /wallets/{address}/{base,arbitrum}/cage: the policy and positions as the contract holds
 * them. Fail-closed: no cage, no RPC or a failed read answers `unavailable` with the reason,
 * never a guessed policy.
 *
 * @example
 * await readWalletCage(cages.base, owner) // { status: 'available', policy: { enabled: true, … } }
 */
export async function readWalletCage(cage: EvmCage, address: string): Promise<WalletCageDocument> {
  const owner = cageWallet(address, 'params.address');
  const base = { chain: cage.chain, wallet: owner, cage: cage.address ?? null };
  const missing = cageUnavailable(cage);
  const state = missing ? null : await cage.readState(owner);
  if (!state || state.status === 'unavailable') {
    const why = missing ?? (state?.status === 'unavailable' ? state : null);
    return {
      ...base,
      status: 'unavailable',
      reason: why?.reason ?? 'rpc_error',
      detail: why?.detail ?? null,
      paused: null,
      policy: null,
    };
  }
  return {
    ...base,
    status: 'available',
    reason: null,
    detail: null,
    paused: state.paused,
    policy: {
      enabled: state.enabled,
      skimBps: state.skimBps,
      agent: state.agent,
      venues: state.venues.map((venue) => ({
        venue: venue.venue,
        assetsMicros: formatMicros(venue.assets),
        principalMicros: formatMicros(venue.principal),
        yieldMicros: formatMicros(venue.yield),
      })),
      payees: [...state.payees],
    },
  };
}
