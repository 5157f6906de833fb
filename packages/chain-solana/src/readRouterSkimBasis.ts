import { PublicKey } from '@solana/web3.js';
import type { RouterSkimBasis, VenueOnChain } from '@yieldrouter/schemas';
import { routerVenuePosition } from './instructions/routerInstructions';
import { venueKeys } from './legKeys';
import { parsePublicKey } from './parsePublicKey';
import { readRouterFeeConfig } from './readRouterFeeConfig';
import type { SolanaContext } from './solanaContext';

/** The router's venue position account (yield_router.c): magic, owner, adapter, bump, then u64s. */
const VENUE_POSITION_MAGIC = 'YRVPOS01';
const VENUE_POSITION_PRINCIPAL = 80;
const VENUE_POSITION_SHARES = 88;

/**
 * What the router measures a withdrawal's skim against (docs/venues/solana.md, "The yield
 * skim"): the principal and receipts it recorded for `owner` in the venue (the `venue_position`
 * PDA of the protocol account the registry lists) and the registry's skim. Null when it cannot
 * be read (no router venue, no position, an RPC failure): the plan then asks what was asked.
 */
export async function readRouterSkimBasis(
  context: SolanaContext,
  venue: VenueOnChain,
  owner: string,
): Promise<RouterSkimBasis | null> {
  const ownerKey = parsePublicKey(owner);
  const keys = venueKeys(context.config, venue);
  if (!ownerKey || keys.status !== 'ok' || context.rpc.status !== 'ok') return null;
  try {
    // The protocol names its registered account while it builds a call (read-only here).
    const call = await keys.protocol.buildCall({
      context,
      action: 'withdraw',
      owner: ownerKey,
      amountMicros: 1n,
      usdcMint: keys.router.usdcMint,
      ids: keys.ids,
    });
    if ('blockers' in call) return null;
    const fees = await readRouterFeeConfig(context, keys.router.adapterRegistry);
    if ('blockers' in fees) return null;
    const address = routerVenuePosition(keys.router.programId, ownerKey, call.adapter);
    const account = await context.rpc.connection.getAccountInfo(address, 'confirmed');
    if (!account || !account.owner.equals(new PublicKey(keys.router.programId))) return null;
    const data = Buffer.from(account.data);
    if (data.subarray(0, 8).toString('latin1') !== VENUE_POSITION_MAGIC) return null;
    return {
      principalMicros: data.readBigUInt64LE(VENUE_POSITION_PRINCIPAL),
      shares: data.readBigUInt64LE(VENUE_POSITION_SHARES),
      skimBps: fees.skimBps,
    };
  } catch {
    return null;
  }
}
