import type { Principal } from '../http/auth';

/** Whether two addresses are proven one owner's (the engine's `ownsBoth`). */
export type OwnsBoth = (source: string, destination: string) => boolean;

/**
 * How a bridge to (or a deposit from) another chain family — its own address format — proves
 * the two addresses are the same owner's: an owner key listing both by name. A key of another
 * role, a `*` key (it names no address) or no key proves nothing: the plan is then refused 422
 * BRIDGE_DESTINATION_NOT_OWNER.
 */
export const ownsBothOf =
  (caller: Principal | null | undefined): OwnsBoth =>
  (source, destination) =>
    caller?.role === 'owner' &&
    caller.wallets.has(caller.walletOf(source)) &&
    caller.wallets.has(caller.walletOf(destination));

/**
 * On a public route a key sent along (`x-api-key`) only serves as that proof: the owner behind
 * it, or null when none is sent, it is unknown or revoked, or keys are not resolved here.
 */
export async function callerOf(
  header: (name: string) => string | undefined,
  resolveKey: ((raw: string) => Promise<Principal | null>) | undefined,
): Promise<Principal | null> {
  const raw = header('x-api-key');
  return raw && resolveKey ? resolveKey(raw) : null;
}
