import request from 'supertest';
import { startYieldsServer } from '@yieldrouter/chain-beds/yields';
import type { YieldsPool, YieldsServer } from '@yieldrouter/chain-beds/yields';
import type { TestApp } from './startTestApp';
import { startTestApp, testKeys } from './startTestApp';

/** A test app reading APY from a local DefiLlama-shaped source, refreshed `refreshes` times. */
export interface YieldsApp {
  readonly t: TestApp;
  readonly yields: YieldsServer;
  close(): Promise<void>;
}

/**
 * Starts the yields fake with `pools`, and the app with each venue of `poolOf` reading its pool
 * (plus `env`); then refreshes APY `refreshes` times through the API as the keeper would.
 */
export async function startYieldsApp({
  pools,
  poolOf,
  env = {},
  refreshes = 1,
}: {
  readonly pools: readonly YieldsPool[];
  /** venueId → pool id. */
  readonly poolOf: Readonly<Record<string, string>>;
  readonly env?: Record<string, string>;
  readonly refreshes?: number;
}): Promise<YieldsApp> {
  const yields = await startYieldsServer({ pools });
  const t = await startTestApp({
    SVC_APY_BASE_URL: yields.url,
    SVC_APY_POOLS: JSON.stringify(poolOf),
    ...env,
  });
  for (let run = 0; run < refreshes; run += 1) {
    await request(t.app)
      .post('/api/v1/svc/map/venues/refresh')
      .set('X-API-Key', testKeys.keeper)
      .expect(200);
  }
  return {
    t,
    yields,
    close: async () => {
      await t.close();
      await yields.stop();
    },
  };
}
