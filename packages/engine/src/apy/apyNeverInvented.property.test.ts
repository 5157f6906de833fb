import fc from 'fast-check';
import {
  closedPortUrl,
  startGarbageServer,
  startSilentServer,
} from '@yieldrouter/chain-beds/faults';
import type { FaultEndpoint } from '@yieldrouter/chain-beds/faults';
import {
  DEFAULT_YIELDS_POOLS,
  makeYieldsPool,
  startYieldsServer,
} from '@yieldrouter/chain-beds/yields';
import type { YieldsServer } from '@yieldrouter/chain-beds/yields';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import { buildEnablement } from '../meta/buildEnablement';
import { VENUE_CATALOG } from '../venues/catalog';
import { listOpportunities } from '../venues/listOpportunities';
import { refreshApy } from '../venues/refreshApy';
import { seedVenueCatalog } from '../venues/seedVenueCatalog';
import type { VenueConfig } from '../venues/venueConfig';
import { createDefiLlamaReader } from './defiLlamaReader';
import type { ApyReader } from './types';

// Property: whatever way the APY source fails, after the refresh every venue's APY is null
// with a reason — from the reader through the stored history to the listing — even when the
// previous refresh had good values. Real Postgres, real local HTTP servers.

const TIMEOUT_MS = 150;
const POOL_IDS = DEFAULT_YIELDS_POOLS.map((pool) => pool.pool);
/** Every venue reads a pool the local yields server serves. */
const venues: VenueConfig = {
  ids: {},
  apyPools: Object.fromEntries(
    VENUE_CATALOG.map((venue, index) => [venue.id, POOL_IDS[index % POOL_IDS.length] as string]),
  ),
  apyMaxAgeMs: 3_600_000,
  apyMeanMinSamples: 1,
};
const enablement = buildEnablement({
  switches: {
    sui: { executionEnabled: false, broadcastEnabled: false },
    solana: { executionEnabled: false, broadcastEnabled: false },
    base: { executionEnabled: false, broadcastEnabled: false },
    arbitrum: { executionEnabled: false, broadcastEnabled: false },
  },
  writeReadyChains: new Set(),
});

/** A body with every configured pool carrying `apy` as the raw JSON text given. */
const poolsWithApy = (raw: string) =>
  `{"status":"success","data":[${POOL_IDS.map(
    (pool) => `{"pool":"${pool}","apy":${raw},"apyBase":null,"apyReward":null,"tvlUsd":1000}`,
  ).join(',')}]}`;

type Failure =
  | { readonly kind: 'throws' }
  | { readonly kind: 'closed port' }
  | { readonly kind: 'silent' }
  | { readonly kind: 'http error'; readonly status: number }
  | { readonly kind: 'garbage'; readonly body: string }
  | { readonly kind: 'bed failure'; readonly mode: 'error500' | 'garbage' | 'silent' }
  | { readonly kind: 'missing pools' }
  | { readonly kind: 'bad value'; readonly raw: string };

const badApy = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '"NaN"', '"4.2"', 'true', '{}', '[]', 'null', '-100.5'),
  fc.double({ min: 100_000.01, max: 1e300, noNaN: true }).map(String),
  fc.double({ min: -1e300, max: -100.01, noNaN: true }).map(String),
);
const failure: fc.Arbitrary<Failure> = fc.oneof(
  fc.constant({ kind: 'throws' as const }),
  fc.constant({ kind: 'closed port' as const }),
  fc.constant({ kind: 'silent' as const }),
  fc.record({
    kind: fc.constant('http error' as const),
    status: fc.integer({ min: 400, max: 599 }),
  }),
  fc.record({
    kind: fc.constant('garbage' as const),
    body: fc.oneof(
      fc.string(),
      fc.json(),
      fc.constantFrom('<html>', '{"status":"success"}', '{"status":"success","data":[{}]}'),
      fc.constant(poolsWithApy('4.2').slice(0, 120)),
    ),
  }),
  fc.record({
    kind: fc.constant('bed failure' as const),
    mode: fc.constantFrom('error500' as const, 'garbage' as const, 'silent' as const),
  }),
  fc.constant({ kind: 'missing pools' as const }),
  fc.record({ kind: fc.constant('bad value' as const), raw: badApy }),
);

let test: TestDatabase;
let yields: YieldsServer;
let silent: FaultEndpoint;
beforeAll(async () => {
  [test, yields, silent] = await Promise.all([
    createTestDatabase(),
    startYieldsServer(),
    startSilentServer(),
  ]);
  await seedVenueCatalog(test.db);
});
afterAll(async () => {
  await Promise.all([test.drop(), yields.stop(), silent.close()]);
});

const reader = (baseUrl: string) => createDefiLlamaReader({ baseUrl, timeoutMs: TIMEOUT_MS });
const refresh = (apyReader: ApyReader) =>
  refreshApy({ db: test.db, reader: apyReader, venues, now: () => new Date() });

/** The reader for a failure mode, and what to close after the run. */
async function failingReader(
  mode: Failure,
): Promise<{ reader: ApyReader; close?: () => Promise<void> }> {
  switch (mode.kind) {
    case 'throws':
      return {
        reader: {
          source: 'defillama',
          read: async () => {
            throw new Error('reader crashed');
          },
        },
      };
    case 'closed port':
      return { reader: reader(await closedPortUrl()) };
    case 'silent':
      return { reader: reader(silent.url) };
    case 'bed failure':
      yields.setFailure(mode.mode);
      return { reader: reader(yields.url), close: async () => yields.setFailure('none') };
    case 'missing pools':
      yields.setPools([makeYieldsPool({ pool: 'not-a-configured-pool' })]);
      return {
        reader: reader(yields.url),
        close: async () => yields.setPools(DEFAULT_YIELDS_POOLS),
      };
    case 'http error':
    case 'garbage':
    case 'bad value': {
      const endpoint =
        mode.kind === 'http error'
          ? await startGarbageServer(poolsWithApy('4.2'), mode.status)
          : await startGarbageServer(mode.kind === 'garbage' ? mode.body : poolsWithApy(mode.raw));
      return { reader: reader(endpoint.url), close: () => endpoint.close() };
    }
  }
}

it('APY is never non-null after a failed refresh, whatever the failure and the history', async () => {
  await fc.assert(
    fc.asyncProperty(failure, fc.boolean(), async (mode, goodBefore) => {
      if (goodBefore) {
        const good = await refresh(reader(yields.url));
        expect(good.ok).toBeGreaterThan(0);
      }
      const { reader: failing, close } = await failingReader(mode);
      try {
        const result = await refresh(failing);
        expect(result.ok).toBe(0);
      } finally {
        await close?.();
      }
      const listing = await listOpportunities({
        db: test.db,
        venues,
        enablement,
        now: new Date(),
      });
      expect(listing).toHaveLength(VENUE_CATALOG.length);
      for (const entry of listing) {
        expect(entry.grossApyBps).toBeNull();
        expect(entry.gross_apy_bps).toBeNull();
        expect(entry.apy.reason).toEqual(expect.any(String));
        expect(entry.apy.baseBps).toBeNull();
      }
    }),
    { numRuns: 40 },
  );
});
