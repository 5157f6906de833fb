import { makeYieldsPool, startYieldsServer } from '@yieldrouter/chain-beds/yields';
import type { YieldsPool, YieldsServer } from '@yieldrouter/chain-beds/yields';
import { createDefiLlamaReader } from './defiLlamaReader';

// The yields fake answering with DefiLlama's full pool shape, then with risk fields missing,
// malformed or flagging an outlier: each risk field stands alone (null when the source does not
// say), and none of them ever spoils or changes the APY reading.

let yields: YieldsServer;
beforeAll(async () => {
  yields = await startYieldsServer();
});
afterAll(() => yields.stop());

const read = async (pool: YieldsPool | Record<string, unknown>) => {
  yields.setPools([pool as YieldsPool]);
  const [reading] = await createDefiLlamaReader({ baseUrl: yields.url, timeoutMs: 2_000 }).read([
    { venueId: 'v', poolId: 'p' },
  ]);
  if (reading?.status !== 'ok') throw new Error(`unavailable: ${JSON.stringify(reading)}`);
  return reading;
};

/** The facts of a pool whose source says nothing of its risk or tokens. */
const NOTHING_SAID = {
  outlier: null,
  exposure: null,
  ilRisk: null,
  predictedClass: null,
  stablecoin: null,
  underlyingTokens: [],
  rewardTokens: [],
};

/** The pool without the named fields, as a source that omits them answers. */
const without = (pool: YieldsPool, ...names: (keyof YieldsPool)[]) =>
  Object.fromEntries(Object.entries(pool).filter(([name]) => !names.includes(name as never)));

it('the full shape: every risk field and token list read as given', async () => {
  const reading = await read(
    makeYieldsPool({
      pool: 'p',
      exposure: 'multi',
      ilRisk: 'yes',
      rewardTokens: ['0x4200000000000000000000000000000000000042'],
    }),
  );
  expect(reading.apyBps).toBe(421);
  expect(reading.facts).toEqual({
    outlier: false,
    exposure: 'multi',
    ilRisk: 'yes',
    predictedClass: 'Stable/Up',
    stablecoin: true,
    underlyingTokens: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
    rewardTokens: ['0x4200000000000000000000000000000000000042'],
  });
});

it('an outlier flag is kept; the APY is served as the source gives it', async () => {
  const reading = await read(makeYieldsPool({ pool: 'p', apy: 950, apyBase: 950, outlier: true }));
  expect(reading.apyBps).toBe(95_000);
  expect(reading.facts?.outlier).toBe(true);
});

it('missing risk fields are null or empty, never a default; the APY is unchanged', async () => {
  const reading = await read(
    without(
      makeYieldsPool({ pool: 'p' }),
      'outlier',
      'exposure',
      'ilRisk',
      'predictions',
      'stablecoin',
      'underlyingTokens',
      'rewardTokens',
    ),
  );
  expect(reading.apyBps).toBe(421);
  expect(reading.facts).toEqual(NOTHING_SAID);
});

it('malformed risk fields are null one by one; a bad token entry is left out', async () => {
  const reading = await read({
    ...makeYieldsPool({ pool: 'p' }),
    outlier: 'yes',
    exposure: 'many',
    ilRisk: true,
    predictions: { predictedClass: 42 },
    stablecoin: 1,
    underlyingTokens: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', 7, null, ''],
    rewardTokens: 'KMNo',
  });
  expect(reading.apyBps).toBe(421);
  expect(reading.facts).toEqual({
    ...NOTHING_SAID,
    underlyingTokens: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'],
  });
});

it('predictions: null is no class', async () => {
  const reading = await read({ ...makeYieldsPool({ pool: 'p' }), predictions: null });
  expect(reading.facts?.predictedClass).toBeNull();
});
