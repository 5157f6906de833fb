import type { Request } from 'express';
import type { ApiStore } from '@yieldrouter/engine';
import type { Role, RouteDefinition } from '@yieldrouter/schemas';
import type { StaticApiKey } from '../env';
import { ApiError } from './apiError';
import type { AuthFailures } from './authFailures';

/** Who is calling: resolved from X-API-Key. */
export interface Principal {
  readonly keyId: string;
  readonly role: Role;
  /** Wallets the key may act on, in canonical form; `*` in the list means every wallet. */
  readonly wallets: ReadonlySet<string>;
  /** Character id → wallet (own entries only: a Map, so `__proto__` is just an unknown id). */
  readonly characters: ReadonlyMap<string, string>;
  /** The canonical form the key's wallets are compared in. */
  readonly walletOf: (address: string) => string;
}

/**
 * Whether the key may act on `wallet`, compared canonically: an EVM address in any letter case,
 * a Sui address with or without its leading zeros, a Solana address exactly.
 */
export function principalAllowsWallet(principal: Principal, wallet: string): boolean {
  return principal.wallets.has('*') || principal.wallets.has(principal.walletOf(wallet));
}

interface CacheEntry {
  readonly principal: Principal | null;
  readonly hash: string;
  readonly expiresAt: number;
}

export interface KeyResolverOptions {
  /** Where keys are looked up (the app's store). */
  readonly store: Pick<ApiStore, 'hashKey' | 'findActiveKey'>;
  readonly secret: string;
  readonly staticKeys: readonly StaticApiKey[];
  /** How long a lookup (hit or miss) is cached; revocation takes effect within this. */
  readonly cacheTtlMs?: number;
  readonly cacheMaxEntries?: number;
  /** The canonical form of a wallet address (default: as given). */
  readonly walletOf?: (address: string) => string;
}

const asGiven = (address: string) => address;

/**
 * Resolves raw API keys to principals: HMAC-SHA256 with the server secret, then the static
 * keys (SVC_API_KEYS, hashed at load) and the api_keys table, cached briefly. The cache is
 * keyed by the raw key, so a cached key costs no HMAC; lapsed entries are swept as new keys
 * are looked up, and a raw key is never written anywhere.
 */
export class KeyResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private nextSweep = 0;
  private readonly staticByHash = new Map<string, Principal>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly walletOf: (address: string) => string;

  constructor(private readonly options: KeyResolverOptions) {
    this.ttlMs = options.cacheTtlMs ?? 30_000;
    this.maxEntries = options.cacheMaxEntries ?? 10_000;
    this.walletOf = options.walletOf ?? asGiven;
    for (const entry of options.staticKeys) {
      const hash = options.store.hashKey(entry.key, options.secret);
      this.staticByHash.set(
        hash,
        this.principal(
          `static_${hash.slice(0, 12)}`,
          entry.role,
          entry.wallets,
          Object.entries(entry.characters),
        ),
      );
    }
  }

  /** The cached answer for `rawKey` (a principal, or null for a known miss), undefined if none. */
  peek(rawKey: string): Principal | null | undefined {
    const cached = this.cache.get(rawKey);
    return cached && cached.expiresAt > Date.now() ? cached.principal : undefined;
  }

  /** The key's HMAC with the server secret (from the cache while its lookup is). */
  hashOf(rawKey: string): string {
    const cached = this.cache.get(rawKey);
    return cached && cached.expiresAt > Date.now()
      ? cached.hash
      : this.options.store.hashKey(rawKey, this.options.secret);
  }

  async resolve(rawKey: string): Promise<Principal | null> {
    const now = Date.now();
    const cached = this.cache.get(rawKey);
    if (cached && cached.expiresAt > now) return cached.principal;
    const hash = this.options.store.hashKey(rawKey, this.options.secret);
    const principal = this.staticByHash.get(hash) ?? (await this.lookup(hash));
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    else if (now >= this.nextSweep) this.sweep(now);
    this.cache.set(rawKey, { principal, hash, expiresAt: now + this.ttlMs });
    return principal;
  }

  /** Drops lapsed entries (raw keys do not outlive their entry by more than one period). */
  private sweep(now: number): void {
    this.nextSweep = now + Math.max(this.ttlMs, 1000);
    for (const [raw, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(raw);
  }

  private async lookup(hash: string): Promise<Principal | null> {
    const row = await this.options.store.findActiveKey(hash);
    if (!row) return null;
    return this.principal(row.id, row.role, row.wallets, []);
  }

  private principal(
    keyId: string,
    role: Role,
    wallets: readonly string[],
    characters: readonly (readonly [string, string])[],
  ): Principal {
    const walletOf = this.walletOf;
    return {
      keyId,
      role,
      wallets: new Set(wallets.map((wallet) => (wallet === '*' ? wallet : walletOf(wallet)))),
      characters: new Map(characters),
      walletOf,
    };
  }
}

/**
 * The caller of a public route that sends an X-API-Key anyway: its principal, so its
 * Idempotency-Keys and rate limit are its own. An unknown key is no identity (the route is
 * public): the caller is anonymous, and learns nothing about the key.
 */
export async function optionalPrincipal(
  req: Request,
  keys: KeyResolver,
): Promise<Principal | null> {
  const raw = req.header('x-api-key');
  if (!raw) return null;
  const known = keys.peek(raw);
  if (known !== undefined) return known;
  return keys.resolve(raw);
}

/** 429 for an identity that failed authentication too often: it waits, whatever key it sends. */
function tooManyFailures(seconds: number): ApiError {
  return new ApiError('RATE_LIMITED', `too many failed authentications; retry after ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * The caller of a keyed route, from X-API-Key: 401 without a key or for an unknown one, 429
 * while its address or key prefix waits out failed attempts, 403 for a role the route does
 * not allow.
 */
export async function authenticate(
  route: Pick<RouteDefinition, 'auth'>,
  req: Request,
  options: { readonly keys: KeyResolver; readonly authFailures: AuthFailures },
): Promise<Principal> {
  if (route.auth === 'public') throw new Error('authenticate() is for keyed routes');
  const raw = req.header('x-api-key');
  if (!raw) {
    throw new ApiError('UNAUTHORIZED', 'X-API-Key header is required for this route', {
      status: 401,
    });
  }
  const { keys, authFailures } = options;
  // A key this process has just resolved is served at once; anything else first checks that
  // its address is not waiting out failed attempts, so guessing costs no database lookups.
  let principal = keys.peek(raw);
  if (!principal) {
    const ip = `ip:${req.ip ?? 'unknown'}`;
    const ipWait = await authFailures.waitSeconds(ip);
    if (ipWait > 0) throw tooManyFailures(ipWait);
    if (principal === undefined) principal = await keys.resolve(raw);
    if (!principal) {
      // A blocked key prefix refuses only keys that do not resolve: an owner whose prefix
      // someone else is guessing at is still served.
      const prefix = `prefix:${raw.slice(0, 12)}`;
      const prefixWait = await authFailures.waitSeconds(prefix);
      if (prefixWait > 0) throw tooManyFailures(prefixWait);
      await authFailures.fail([ip, prefix]);
      throw new ApiError('INVALID_API_KEY', 'the X-API-Key is unknown or revoked');
    }
  }
  if (!route.auth.includes(principal.role)) {
    throw new ApiError(
      'UNAUTHORIZED',
      `this route needs a ${route.auth.join(' or ')} key; this key is ${principal.role}`,
    );
  }
  return principal;
}
