// Test support: an adapter wired to a Solana bed, and the owner's-wallet side of a leg.
import { PublicKey, VersionedTransaction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import type { ChainAdapter, LegBuild, UnsignedLeg } from '@yieldrouter/schemas';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import { createSolanaAdapter } from '../createSolanaAdapter';
import type { SolanaAdapterConfig } from '../solanaAdapterConfig';

const programId = new PublicKey(new Uint8Array(32).fill(11));
const pda = (seed: string) =>
  PublicKey.findProgramAddressSync([Buffer.from(seed)], programId)[0].toBase58();

/**
 * Router ids for tests: a program id nobody deployed and its PDAs (off-curve, like the real
 * router's accounts). The router program does not run in the bed.
 */
export const TEST_ROUTER = {
  programId: programId.toBase58(),
  yieldRouter: pda('yield_router'),
  adapterRegistry: pda('adapter_registry'),
} as const;

/** A config pointing at the bed, with the router ids set; `overrides` win. */
export function bedConfig(
  bed: Pick<SolanaBed, 'rpcUrl' | 'usdcMint'>,
  overrides: Partial<SolanaAdapterConfig> = {},
): SolanaAdapterConfig {
  return {
    rpcUrl: bed.rpcUrl,
    timeoutMs: 2000,
    broadcastEnabled: true,
    usdcMint: bed.usdcMint,
    ...TEST_ROUTER,
    ...overrides,
  };
}

/** An adapter over the bed (see `bedConfig`). */
export function bedAdapter(
  bed: Pick<SolanaBed, 'rpcUrl' | 'usdcMint'>,
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
