import { createHash } from 'node:crypto';
import type { Opportunity } from '@yieldrouter/schemas';
import { deepFreeze } from '../deepFreeze';

/** A document derived from a snapshot: built once, frozen, with its entity tag. */
export interface DerivedDocument<T> {
  readonly body: T;
  /** Strong entity tag (quoted): equal tags mean byte-identical bodies. */
  readonly etag: string;
}

/** One immutable view of every opportunity, shared by the discovery routes. */
export interface OpportunitySnapshot {
  /** Content hash of the opportunities: unchanged content keeps its version (and its ETags). */
  readonly version: string;
  /** When this content was first seen (ISO 8601): the listing is unchanged since then. */
  readonly asOf: string;
  readonly opportunities: readonly Opportunity[];
  /** A document computed from this snapshot once per `key`, then served as is. */
  derive<T extends object>(
    key: string,
    build: (snapshot: OpportunitySnapshot) => T,
  ): DerivedDocument<T>;
}

export interface OpportunitySnapshotsOptions {
  readonly load: () => Promise<Opportunity[]>;
  /** How long a snapshot is served before it is re-read; 0 re-reads on every call. */
  readonly ttlMs: number;
  readonly now?: () => Date;
}

export interface OpportunitySnapshots {
  /** The current snapshot; re-read from the database when older than the TTL. */
  current(): Promise<OpportunitySnapshot>;
  /** Forget the snapshot (after an APY refresh or a re-seed): the next call reads anew. */
  invalidate(): void;
}

/**
 * Documents kept per snapshot: keys include query filters, so their number is bounded; past it a
 * document is built per call (still with its ETag) until the next snapshot.
 */
const MAX_DERIVED_DOCUMENTS = 512;

const hash = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

function buildSnapshot(opportunities: Opportunity[], asOf: string, version: string) {
  const derived = new Map<string, DerivedDocument<object>>();
  const snapshot: OpportunitySnapshot = {
    version,
    asOf,
    opportunities: deepFreeze(opportunities),
    derive<T extends object>(key: string, build: (view: OpportunitySnapshot) => T) {
      let document = derived.get(key) as DerivedDocument<T> | undefined;
      if (!document) {
        document = { body: deepFreeze(build(snapshot)), etag: `"${version}-${hash(key, 8)}"` };
        if (derived.size < MAX_DERIVED_DOCUMENTS) derived.set(key, document);
      }
      return document;
    },
  };
  return snapshot;
}

/**
 * A read-through cache of the opportunity listing for the discovery routes (venues, home,
 * discover, strategies, forms, estimates). Requests within the TTL share one frozen snapshot,
 * so documents derived from it are built and serialized once; concurrent misses share one
 * database read; an expired snapshot is served while its successor loads. Content that did
 * not change keeps its version, so clients revalidating with `If-None-Match` get 304.
 *
 * @example
 * const snapshots = createOpportunitySnapshots({ load: () => listOpportunities(…), ttlMs: 5000 });
 * const { body, etag } = (await snapshots.current()).derive('home', buildHomeDocument);
 */
export function createOpportunitySnapshots(
  options: OpportunitySnapshotsOptions,
): OpportunitySnapshots {
  const now = options.now ?? (() => new Date());
  let snapshot: OpportunitySnapshot | undefined;
  let loadedAt = 0;
  let loading: Promise<OpportunitySnapshot> | undefined;
  let generation = 0;

  const reload = (): Promise<OpportunitySnapshot> => {
    if (loading) return loading;
    const started = generation;
    const promise = options.load().then(
      (opportunities) => {
        const version = hash(JSON.stringify(opportunities), 16);
        const next =
          snapshot?.version === version
            ? snapshot
            : buildSnapshot(opportunities, now().toISOString(), version);
        if (started === generation) {
          snapshot = next;
          loadedAt = now().getTime();
          loading = undefined;
        }
        return next;
      },
      (error: unknown) => {
        if (started === generation) {
          snapshot = undefined;
          loading = undefined;
        }
        throw error;
      },
    );
    loading = promise;
    return promise;
  };

  return {
    async current() {
      if (!snapshot) return reload();
      if (now().getTime() - loadedAt >= options.ttlMs) {
        if (options.ttlMs === 0) return reload();
        // Stale-while-revalidate: this caller gets the expired snapshot, the next a fresh one.
        reload().catch(() => undefined);
      }
      return snapshot;
    },
    invalidate() {
      generation += 1;
      snapshot = undefined;
      loading = undefined;
    },
  };
}
