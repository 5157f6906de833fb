import { startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';
import { startYieldsServer } from '@yieldrouter/chain-beds/yields';
import type { YieldsServer } from '@yieldrouter/chain-beds/yields';
import { createEvmAdapter } from '@yieldrouter/chain-evm';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { Opportunity } from '@yieldrouter/schemas';
import { createDefiLlamaReader } from '../apy';
import type { ChainAdapters } from '../chains/chainsConfig';
import { listOpportunities } from './listOpportunities';
import { refreshApy } from './refreshApy';
import { seedVenueCatalog } from './seedVenueCatalog';
import type { VenueConfig } from './venueConfig';

// The discovery refresh reads the Base ERC-4626 vault (morpho's configured vault) and the Aave
// v3 stand-in (aave-v3's configured pool and aToken) on anvil, and the listing serves their caps
// and native TVL from the stored read, as the vault's limit and the reserve's supply cap change.
// Only Base has an adapter here: every other venue's caps are null with the reason.

let bed: EvmBed;
let yields: YieldsServer;
let test: TestDatabase;
let venues: VenueConfig;
let adapters: ChainAdapters;

beforeAll(async () => {
  [bed, yields, test] = await Promise.all([
    startEvmBed(),
    startYieldsServer(),
    createTestDatabase(),
  ]);
  await seedVenueCatalog(test.db);
  venues = {
    ids: {
      morpho: { vault: bed.fixtures.vault },
      'aave-v3': { pool: bed.fixtures.aavePool, aToken: bed.fixtures.aToken },
    },
    apyPools: {},
    apyMaxAgeMs: 3_600_000,
    apyMeanMinSamples: 1,
  };
  // Only the chains this test reads; the refresh treats a missing adapter as no reader.
  adapters = {
    base: createEvmAdapter({ chain: 'base', timeoutMs: 2_000, ...bed.adapterConfig }),
  } as unknown as ChainAdapters;
});
afterAll(async () => {
  await Promise.all([bed?.stop(), yields?.stop(), test?.drop()]);
});

async function refreshedListing(config: VenueConfig = venues): Promise<readonly Opportunity[]> {
  await refreshApy({
    db: test.db,
    reader: createDefiLlamaReader({ baseUrl: yields.url, timeoutMs: 2_000 }),
    venues: config,
    now: () => new Date(),
    adapters,
  });
  return listOpportunities({ db: test.db, venues: config, enablement: [], now: new Date() });
}
const venueOf = (venueId: string) => (listing: readonly Opportunity[]) => {
  const found = listing.find((entry) => entry.venueId === venueId);
  if (!found) throw new Error(`no ${venueId}`);
  return found;
};
const morphoOf = venueOf('morpho');
const aaveOf = venueOf('aave-v3');

it('caps follow the vault maxDeposit; TVL in native units and tokens come from the chain', async () => {
  const uncapped = morphoOf(await refreshedListing());
  expect(uncapped.caps).toMatchObject({ totalUnits: null, maxUnits: null, remainingUnits: null });
  expect(uncapped.caps.reason).toMatch(/uncapped/);
  expect(uncapped.tvl.nativeUnits).toBe('0');
  expect(uncapped.tokens.underlying).toEqual({
    address: bed.fixtures.usdc,
    decimals: 6,
    source: 'chain',
  });
  expect(uncapped.tokens.receipt).toEqual({
    address: bed.fixtures.vault,
    decimals: 6,
    source: 'chain',
  });

  await bed.fixtures.setVaultDepositLimit(40_000_000n);
  const capped = morphoOf(await refreshedListing());
  expect(capped.caps.maxUnits).toBe('40000000');
  expect(capped.caps.asOf).toEqual(expect.any(String));

  await bed.fixtures.simulateYield(15_000_000n);
  const fuller = morphoOf(await refreshedListing());
  expect(fuller.caps.maxUnits).toBe('25000000');
  expect(fuller.tvl.nativeUnits).toBe('15000000');

  await bed.fixtures.setVaultDepositLimit(2n ** 256n - 1n); // uint256 max: no limit
  expect(morphoOf(await refreshedListing()).caps.maxUnits).toBeNull();
});

it('Aave v3: no supply cap is null with the reason; a cap gives totalUnits, and remainingUnits follows supplies and the treasury share', async () => {
  const uncapped = aaveOf(await refreshedListing());
  expect(uncapped.caps).toMatchObject({ totalUnits: null, maxUnits: null, remainingUnits: null });
  expect(uncapped.caps.reason).toMatch(/no supply cap set/);
  expect(uncapped.tvl.nativeUnits).toBe('0');
  expect(uncapped.tokens.underlying).toEqual({
    address: bed.fixtures.usdc,
    decimals: 6,
    source: 'chain',
  });
  expect(uncapped.tokens.receipt).toEqual({
    address: bed.fixtures.aToken,
    decimals: 6,
    source: 'chain',
  });

  await bed.fixtures.setAaveSupplyCap(50n); // whole USDC
  const capped = aaveOf(await refreshedListing());
  expect(capped.caps).toMatchObject({
    totalUnits: '50000000',
    maxUnits: '50000000',
    remainingUnits: '50000000',
    reason: null,
  });
  expect(capped.caps.asOf).toEqual(expect.any(String));

  await bed.fixtures.supplyToAave(20_000_000n);
  const supplied = aaveOf(await refreshedListing());
  expect(supplied.tvl.nativeUnits).toBe('20000000');
  expect(supplied.caps).toMatchObject({ remainingUnits: '30000000', maxUnits: '30000000' });

  // The treasury's accrued share is not TVL, but Aave counts it against the cap.
  await bed.fixtures.simulateAaveTreasuryAccrual(4_000_000n);
  const owed = aaveOf(await refreshedListing());
  expect(owed.tvl.nativeUnits).toBe('20000000');
  expect(owed.caps).toMatchObject({
    totalUnits: '50000000',
    remainingUnits: '26000000',
    maxUnits: '26000000',
  });

  await bed.fixtures.supplyToAave(26_000_000n);
  const full = aaveOf(await refreshedListing());
  expect(full.tvl.nativeUnits).toBe('46000000');
  expect(full.caps).toMatchObject({ totalUnits: '50000000', remainingUnits: '0', maxUnits: '0' });

  await bed.fixtures.setAaveSupplyCap(0n);
  expect(aaveOf(await refreshedListing()).caps).toMatchObject({
    totalUnits: null,
    maxUnits: null,
    remainingUnits: null,
  });
});

it('venues without a reader or without ids: every cap null with its reason', async () => {
  // aave-v3 without its ids: the EVM adapter reads nothing it would have to guess.
  const listing = await refreshedListing({
    ...venues,
    ids: { morpho: { vault: bed.fixtures.vault } },
  });
  const others = listing.filter((entry) => entry.venueId !== 'morpho');
  for (const entry of others) {
    expect(entry.caps).toMatchObject({ totalUnits: null, maxUnits: null, remainingUnits: null });
    expect(entry.caps.reason).toEqual(expect.any(String));
    expect(entry.tvl.nativeUnits).toBeNull();
  }
  const sui = others.find((entry) => entry.chain === 'sui');
  expect(sui?.caps.reason).toMatch(/no on-chain reader for sui/);
  const aave = others.find((entry) => entry.venueId === 'aave-v3');
  expect(aave?.caps.reason).toMatch(/pool|aToken|configured/);
});
