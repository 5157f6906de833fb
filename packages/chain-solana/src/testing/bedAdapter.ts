// Test support: an adapter wired to a Solana bed, and the owner's-wallet side of a leg.
import { VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import type { ChainAdapter, LegBuild, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaRouterDeployment } from '@yieldrouter/chain-beds';
import { createSolanaAdapter } from '../createSolanaAdapter';
import type { SolanaAdapterConfig } from '../solanaAdapterConfig';

/** A Solana bed with our router program (and its test venue) deployed. */
export type RouterBed = SolanaBed & { readonly router: SolanaRouterDeployment };

/** Starts a bed and deploys the router: the legs the adapter builds really run there. */
export async function startRouterBed(): Promise<RouterBed> {
  const bed = await startSolanaBed();
  try {
    return { ...bed, router: deployYieldRouter(bed) };
  } catch (error) {
    await bed.stop();
    throw error;
  }
}

/** The bed's klend stand-in as the `kamino` venue (its ids as `SVC_VENUE_IDS.kamino` takes them). */
export function kaminoVenue(bed: RouterBed): VenueOnChain {
  return {
    venueId: 'kamino',
    chain: 'solana',
    standard: 'router-adapter',
    ids: bed.router.kamino.ids,
  };
}

/** A config pointing at the bed and its router's ids (none without a router); `overrides` win. */
export function bedConfig(
  bed: Pick<RouterBed, 'rpcUrl' | 'usdcMint'> & { readonly router?: SolanaRouterDeployment },
  overrides: Partial<SolanaAdapterConfig> = {},
): SolanaAdapterConfig {
  const { programId, yieldRouter, adapterRegistry } = bed.router ?? {};
  return {
    rpcUrl: bed.rpcUrl,
    timeoutMs: 2000,
    broadcastEnabled: true,
    usdcMint: bed.usdcMint,
    programId,
    yieldRouter,
    adapterRegistry,
    ...overrides,
  };
}

/** An adapter over the bed (see `bedConfig`). */
export function bedAdapter(
  bed: Pick<RouterBed, 'rpcUrl' | 'usdcMint'> & { readonly router?: SolanaRouterDeployment },
  overrides: Partial<SolanaAdapterConfig> = {},
): ChainAdapter {
  return createSolanaAdapter(bedConfig(bed, overrides));
}

/** The only leg of a prepared build (fails the test otherwise). */
export function onlyLeg(build: LegBuild): UnsignedLeg {
  if (build.status !== 'prepared')
    throw new Error(`expected prepared, got ${JSON.stringify(build)}`);
  const [leg, ...rest] = build.legs;
  if (!leg || rest.length > 0) throw new Error(`expected one leg, got ${build.legs.length}`);
  return leg;
}

/** The unsigned transaction of a Solana leg. */
export function legTransaction(leg: UnsignedLeg): VersionedTransaction {
  if (leg.payload.encoding !== 'solana-v0-base64') throw new Error('not a Solana leg');
  return VersionedTransaction.deserialize(Buffer.from(leg.payload.transaction, 'base64'));
}

/** What the owner's wallet does: deserialize, sign, and hand back base64 wire bytes. */
export function signLeg(leg: UnsignedLeg, owner: Keypair): string {
  const transaction = legTransaction(leg);
  transaction.sign([owner]);
  return Buffer.from(transaction.serialize()).toString('base64');
}
