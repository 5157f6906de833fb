import type { SuiSwapBedApp } from './startSuiSwapBedApp';
import { SUI_TEST_USDC, startSuiSwapBedApp } from './startSuiSwapBedApp';
import { OWNER_AND_KEEPER_KEYS } from './suiBedLegs';

/** Per venue: make interest accrue; what `shares` (held by `owner`) are worth on the bed. */
export type SuiVenueBeds = Record<
  string,
  { accrue(): void; value(owner: string, shares: bigint): bigint }
>;

/**
 * The Sui bed with Suilend, Navi and Scallop running their own functions (ids in
 * SVC_VENUE_IDS), the owner and keeper keys, plus `env`; and how each venue accrues and values.
 */
export async function startSuiVenueBedApp(
  env: Readonly<Record<string, string>> = {},
): Promise<{ readonly bed: SuiSwapBedApp; readonly venues: SuiVenueBeds }> {
  const venues: SuiVenueBeds = {};
  const bed = await startSuiSwapBedApp((fake) => {
    const suilend = fake.addSuilend({ usdc: SUI_TEST_USDC, availableAmount: 1_000_000_000_000n });
    const navi = fake.addNavi({ usdc: SUI_TEST_USDC });
    const scallop = fake.addScallop({ usdc: SUI_TEST_USDC, cash: 1_000_000_000_000n });
    venues['suilend'] = {
      accrue: () => suilend.accrue(37_000_000_123n),
      value: (_owner, shares) => suilend.redeemValue(shares),
    };
    venues['navi'] = {
      accrue: () => navi.accrue(37_001n, 1_000_000n),
      value: (owner) => navi.balanceValue(owner),
    };
    venues['scallop'] = {
      accrue: () => scallop.accrue(41_000_000_777n),
      value: (_owner, shares) => scallop.redeemValue(shares),
    };
    return {
      SVC_VENUE_IDS: JSON.stringify({ suilend: suilend.ids, navi: navi.ids, scallop: scallop.ids }),
      SVC_API_KEYS: OWNER_AND_KEEPER_KEYS,
      ...env,
    };
  });
  return { bed, venues };
}

/**
 * Registers a test file's hooks around one Sui venue bed app (`startSuiVenueBedApp(env)` before
 * all, closed after all); the started bed and venues, for the tests to read.
 */
export function useSuiVenueBedApp(
  env: Readonly<Record<string, string>> = {},
): () => { readonly bed: SuiSwapBedApp; readonly venues: SuiVenueBeds } {
  let started: { readonly bed: SuiSwapBedApp; readonly venues: SuiVenueBeds } | undefined;
  beforeAll(async () => {
    started = await startSuiVenueBedApp(env);
  }, 60_000);
  afterAll(() => started?.bed.close());
  return () => {
    if (!started) throw new Error('the Sui venue bed is not started');
    return started;
  };
}
