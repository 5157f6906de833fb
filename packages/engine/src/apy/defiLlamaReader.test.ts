import { createDefiLlamaReader } from './defiLlamaReader';
import type { ApyReading } from './types';
import { makeYieldsPool, startYieldsServer } from '@yieldrouter/chain-beds/yields';
import type { YieldsServer } from '@yieldrouter/chain-beds/yields';

const AS_OF = new Date('2025-06-01T12:00:00.000Z');

function reader(baseUrl: string | undefined, timeoutMs = 2000) {
  return createDefiLlamaReader({ baseUrl, timeoutMs, now: () => AS_OF });
}

function unavailableReason(reading: ApyReading | undefined): string | undefined {
  return reading?.status === 'unavailable' ? reading.reason : undefined;
}

describe('createDefiLlamaReader against the local yields bed', () => {
  let bed: YieldsServer;

  beforeEach(async () => {
    bed = await startYieldsServer({
      pools: [
        makeYieldsPool({
          pool: 'pool-base',
          apy: 4.215,
          apyBase: 3.005,
          apyReward: 1.21,
          tvlUsd: 123456789.12,
        }),
        makeYieldsPool({ pool: 'pool-plain', apy: 3.87, apyBase: 3.87, apyReward: null }),
        makeYieldsPool({ pool: 'pool-null', apy: null, apyBase: null, apyReward: null }),
      ],
    });
  });

  afterEach(async () => {
    await bed.stop();
  });

  /** What `makeYieldsPool` says of a pool's risk and tokens, as the reader keeps it. */
  const BED_POOL_FACTS = {
    outlier: false,
    exposure: 'single',
    ilRisk: 'no',
    predictedClass: 'Stable/Up',
    stablecoin: true,
    underlyingTokens: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
    rewardTokens: [],
  };

  it('parses values exactly, in query order, with one request per read', async () => {
    const readings = await reader(bed.url).read([
      { venueId: 'plain', poolId: 'pool-plain' },
      { venueId: 'base', poolId: 'pool-base' },
    ]);
    expect(readings).toEqual([
      {
        venueId: 'plain',
        status: 'ok',
        source: 'defillama',
        asOf: AS_OF,
        apyBps: 387,
        apyBaseBps: 387,
        apyRewardBps: null,
        tvlUsdMicros: 123_456_789_000_000n,
        facts: BED_POOL_FACTS,
      },
      {
        venueId: 'base',
        status: 'ok',
        source: 'defillama',
        asOf: AS_OF,
        apyBps: 422,
        apyBaseBps: 301,
        apyRewardBps: 121,
        tvlUsdMicros: 123_456_789_120_000n,
        facts: BED_POOL_FACTS,
      },
    ]);
    expect(bed.requests()).toBe(1);
  });

  it('reports unknown pools, null apy and missing pool ids per venue', async () => {
    const readings = await reader(`${bed.url}/`).read([
      { venueId: 'missing', poolId: 'no-such-pool' },
      { venueId: 'null', poolId: 'pool-null' },
      { venueId: 'unset', poolId: undefined },
      { venueId: 'blank', poolId: '  ' },
      { venueId: 'good', poolId: 'pool-plain' },
    ]);
    expect(readings.map((reading) => reading.venueId)).toEqual([
      'missing',
      'null',
      'unset',
      'blank',
      'good',
    ]);
    expect(readings.map(unavailableReason)).toEqual([
      'pool_not_found',
      'pool_has_no_apy',
      'source_not_configured',
      'source_not_configured',
      undefined,
    ]);
    expect(readings[4]).toMatchObject({ status: 'ok', apyBps: 387 });
    expect(bed.requests()).toBe(1);
  });

  it('makes no request when no base URL, an invalid one, or no pool id is configured', async () => {
    for (const baseUrl of [undefined, '', '   ', 'not a url', 'ftp://example.com']) {
      const readings = await reader(baseUrl).read([{ venueId: 'a', poolId: 'pool-plain' }]);
      expect(readings).toEqual([
        expect.objectContaining({
          venueId: 'a',
          status: 'unavailable',
          reason: 'source_not_configured',
        }),
      ]);
    }
    const none = await reader(bed.url).read([{ venueId: 'a', poolId: undefined }]);
    expect(none.map(unavailableReason)).toEqual(['source_not_configured']);
    expect(await reader(bed.url).read([])).toEqual([]);
    expect(bed.requests()).toBe(0);
  });

  it('marks only the pool with absurd or wrongly typed numbers as a bad response', async () => {
    bed.setPools([
      makeYieldsPool({ pool: 'huge', apy: 100000.5, apyBase: 100000.5 }),
      makeYieldsPool({ pool: 'below', apy: -100.5, apyBase: -100.5 }),
      makeYieldsPool({ pool: 'negative-tvl', tvlUsd: -1 }),
      { ...makeYieldsPool({ pool: 'string-apy' }), apy: '4.2' as unknown as number },
      makeYieldsPool({ pool: 'fine', apy: 5, apyBase: 5 }),
    ]);
    const readings = await reader(bed.url).read(
      ['huge', 'below', 'negative-tvl', 'string-apy', 'fine'].map((poolId) => ({
        venueId: poolId,
        poolId,
      })),
    );
    expect(readings.map(unavailableReason)).toEqual([
      'source_bad_response',
      'source_bad_response',
      'source_bad_response',
      'source_bad_response',
      undefined,
    ]);
    expect(readings[4]).toMatchObject({ status: 'ok', apyBps: 500, apyBaseBps: 500 });
  });

  it('treats a pool listed twice as ambiguous rather than picking one', async () => {
    bed.setPools([
      makeYieldsPool({ pool: 'twice', apy: 1 }),
      makeYieldsPool({ pool: 'twice', apy: 2 }),
    ]);
    const readings = await reader(bed.url).read([{ venueId: 'v', poolId: 'twice' }]);
    expect(readings.map(unavailableReason)).toEqual(['source_bad_response']);
  });

  it('maps the bed failure modes to reasons, without leaking the URL', async () => {
    const cases = [
      ['error500', 'source_error'],
      ['garbage', 'source_bad_response'],
      ['silent', 'source_timeout'],
    ] as const;
    for (const [mode, reason] of cases) {
      bed.setFailure(mode);
      const started = Date.now();
      const readings = await reader(bed.url, 300).read([{ venueId: 'v', poolId: 'pool-plain' }]);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(readings).toEqual([expect.objectContaining({ status: 'unavailable', reason })]);
      const detail = readings[0]?.status === 'unavailable' ? readings[0].detail : '';
      expect(detail).not.toContain(new URL(bed.url).host);
      expect(detail).not.toContain('127.0.0.1');
    }
  });

  it('refuses a timeout that is not a positive integer at creation', () => {
    expect(() => reader(bed.url, 0)).toThrow(RangeError);
    expect(() => reader(bed.url, Number.NaN)).toThrow(RangeError);
  });
});
