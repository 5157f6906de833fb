import type { Database } from '@yieldrouter/ledger';
import { findActiveApiKeyByHash, hashApiKey } from '@yieldrouter/ledger';
import type { Role } from '@yieldrouter/schemas';
import type { StaticApiKey } from '../env';

/** Who is calling: resolved from X-API-Key. */
export interface Principal {
  readonly keyId: string;
  readonly role: Role;
  /** Wallets the key may act on; `*` in the list means every wallet. */
  readonly wallets: ReadonlySet<string>;
  readonly characters: Readonly<Record<string, string>>;
}

export function principalAllowsWallet(principal: Principal, wallet: string): boolean {
  return principal.wallets.has('*') || principal.wallets.has(wallet);
}

interface CacheEntry {
  readonly principal: Principal | null;
  readonly expiresAt: number;
}

export interface KeyResolverOptions {
  readonly db: Database;
  readonly secret: string;
  readonly staticKeys: readonly StaticApiKey[];
  /** How long a lookup (hit or miss) is cached; revocation takes effect within this. */
  readonly cacheTtlMs?: number;
  readonly cacheMaxEntries?: number;
}

/**
 * Resolves raw API keys to principals: HMAC-SHA256 with the server secret, then the static
 * keys (SVC_API_KEYS, hashed at load) and the api_keys table, cached briefly.
 */
export class KeyResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly staticByHash = new Map<string, Principal>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(private readonly options: KeyResolverOptions) {
    this.ttlMs = options.cacheTtlMs ?? 30_000;
    this.maxEntries = options.cacheMaxEntries ?? 10_000;
    for (const entry of options.staticKeys) {
      const hash = hashApiKey(entry.key, options.secret);
      this.staticByHash.set(hash, {
        keyId: `static_${hash.slice(0, 12)}`,
        role: entry.role,
        wallets: new Set(entry.wallets),
        characters: entry.characters,
      });
    }
  }

  async resolve(rawKey: string): Promise<Principal | null> {
    const hash = hashApiKey(rawKey, this.options.secret);
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > now) return cached.principal;
    const principal = this.staticByHash.get(hash) ?? (await this.lookup(hash));
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    this.cache.set(hash, { principal, expiresAt: now + this.ttlMs });
    return principal;
  }

  private async lookup(hash: string): Promise<Principal | null> {
    const row = await findActiveApiKeyByHash(this.options.db.prisma, hash);
    if (!row) return null;
    return { keyId: row.id, role: row.role, wallets: new Set(row.wallets), characters: {} };
  }
}
