import { DEFAULT_YIELDS_POOLS, makeYieldsPool } from './pool';
import { startYieldsServer } from './server';
import type { YieldsServer } from './server';

describe('startYieldsServer', () => {
  let bed: YieldsServer;

  beforeEach(async () => {
    bed = await startYieldsServer();
  });

  afterEach(async () => {
    await bed.stop();
  });

  it('serves the default pools in the DefiLlama response shape', async () => {
    const res = await fetch(`${bed.url}/pools`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await res.json()) as { status: string; data: Record<string, unknown>[] };
    expect(body.status).toBe('success');
    expect(body.data).toHaveLength(DEFAULT_YIELDS_POOLS.length);
    const chains = new Set(body.data.map((pool) => pool['chain']));
    expect(chains).toEqual(new Set(['Base', 'Arbitrum', 'Solana', 'Sui']));
    const first = body.data[0];
    for (const key of [
      'chain',
      'project',
      'symbol',
      'tvlUsd',
      'apyBase',
      'apyReward',
      'apy',
      'pool',
      'apyPct1D',
      'apyMean30d',
      'stablecoin',
      'ilRisk',
      'exposure',
      'poolMeta',
      'underlyingTokens',
      'rewardTokens',
      'predictions',
    ]) {
      expect(first).toHaveProperty(key);
    }
    expect(body.data.some((pool) => pool['apy'] === null)).toBe(true);
  });

  it('serves the pools set by setPools, with values exactly as given', async () => {
    const pool = makeYieldsPool({ pool: 'p-1', apy: 7.125, apyBase: 5, apyReward: 2.125 });
    bed.setPools([pool]);
    const body = (await (await fetch(`${bed.url}/pools`)).json()) as { data: unknown[] };
    expect(body.data).toEqual([JSON.parse(JSON.stringify(pool))]);
  });

  it('answers 404 JSON on other paths and counts every request', async () => {
    const res = await fetch(`${bed.url}/protocols`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'error', message: 'not found' });
    await (await fetch(`${bed.url}/pools?chain=Base`)).text();
    expect(bed.requests()).toBe(2);
  });

  it('fails on demand: 500, garbage, and back to normal', async () => {
    bed.setFailure('error500');
    const failed = await fetch(`${bed.url}/pools`);
    expect(failed.status).toBe(500);
    await failed.text();

    bed.setFailure('garbage');
    const garbage = await fetch(`${bed.url}/pools`);
    expect(garbage.status).toBe(200);
    await expect(garbage.json()).rejects.toThrow();

    bed.setFailure('none');
    expect((await fetch(`${bed.url}/pools`)).status).toBe(200);
    expect(bed.requests()).toBe(3);
  });

  it('stays silent until the client gives up, and stop() still closes promptly', async () => {
    bed.setFailure('silent');
    const started = Date.now();
    await expect(fetch(`${bed.url}/pools`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(bed.requests()).toBe(1);
  });

  it('stop() with a request still hanging does not leave the port open', async () => {
    const other = await startYieldsServer({ pools: [] });
    other.setFailure('silent');
    const pending = fetch(`${other.url}/pools`).catch((error: unknown) => error);
    while (other.requests() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await other.stop();
    expect(String(await pending)).toMatch(/fetch failed/);
    await expect(fetch(`${other.url}/pools`)).rejects.toThrow();
  });
});
