import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { closedPortUrl } from '@yieldrouter/chain-beds/faults';
import { loadVenueProfile } from '@yieldrouter/engine';
import { StrategyList, venueStrategies } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';

// The service on the mainnet profile (SVC_PROFILE=mainnet) with every RPC and the APY source
// unreachable: the venues whose ids are all the protocols' own are ready with those ids, and
// every chain read is N/A with its reason, never a number.

const profile = loadVenueProfile('mainnet');
/**
 * Venues the profile alone makes ready: catalog `ready` and every id set by the profile. Every
 * catalog-ready venue (Suilend's legs read its USDC reserve index from the market on chain, and
 * Silo's its USDC silo from the market's SiloConfig): all but Drift.
 */
const READY_FROM_PROFILE = [
  'suilend',
  'aave-v3',
  'morpho',
  'fluid',
  'kamino',
  'jupiter-lend',
  'save',
  'marginfi',
  'navi',
  'scallop',
  'silo',
];

let t: TestApp;
beforeAll(async () => {
  const closed = await closedPortUrl();
  t = await startTestApp({
    SVC_PROFILE: 'mainnet',
    SVC_APY_BASE_URL: closed,
    SVC_BASE_RPC_URL: closed,
    SVC_ARBITRUM_RPC_URL: closed,
    SVC_SOLANA_RPC_URL: closed,
    SVC_SUI_RPC_URL: closed,
  });
});
afterAll(() => t.close());

const strategies = async () =>
  venueStrategies(
    StrategyList.parse((await request(t.app).get('/api/v1/svc/strategies').expect(200)).body),
  );

it('lists the venues the profile fills with their real ids and ready: true', async () => {
  const listed = await strategies();
  const ready = listed.filter((entry) => entry.ready).map((entry) => entry.venueId);
  expect(ready.sort()).toEqual([...READY_FROM_PROFILE].sort());
  const receiptOf = (venueId: string) => listed.find((entry) => entry.venueId === venueId)?.tokens;
  expect(receiptOf('aave-v3')?.receipt).toMatchObject({
    address: profile.ids['aave-v3']?.aToken,
    source: 'configuration',
  });
  expect(receiptOf('morpho')?.receipt?.address).toBe(profile.ids['morpho']?.vault);
  expect(receiptOf('fluid')?.receipt?.address).toBe(profile.ids['fluid']?.vault);
  expect(receiptOf('scallop')?.receipt?.address).toBe(profile.ids['scallop']?.receiptCoinType);
  expect(receiptOf('suilend')?.receipt?.address).toBe(profile.ids['suilend']?.receiptCoinType);
  expect(receiptOf('kamino')?.receipt?.address).toBe(profile.ids['kamino']?.reserveCollateralMint);
  expect(receiptOf('save')?.receipt?.address).toBe(profile.ids['save']?.reserveCollateralMint);
  expect(receiptOf('jupiter-lend')?.receipt?.address).toBe(profile.ids['jupiter-lend']?.fTokenMint);
  for (const venueId of READY_FROM_PROFILE) {
    expect(listed.find((entry) => entry.venueId === venueId)).toMatchObject({
      ready: true,
      missingIds: [],
      notReadyReason: null,
    });
  }
  // Silo's receipt is its USDC silo, read on chain: with the chain unreachable it is not named
  // (never the SiloConfig, never guessed).
  expect(profile.ids['silo']).toEqual({ siloConfig: '0xDc62a3B19898C55709E3a5d6BDbc336F555Db84D' });
  expect(receiptOf('silo')?.receipt ?? null).toBeNull();
  // marginfi mints no receipt token: its shares live in the owner's MarginfiAccount.
  expect(receiptOf('marginfi')?.receipt ?? null).toBeNull();
  // The rest: Drift is only listed in the catalog (its program takes no deposits).
  for (const venueId of ['drift']) {
    expect(listed.find((entry) => entry.venueId === venueId)).toMatchObject({
      ready: false,
      readiness: 'listed',
    });
  }
});

it('with no RPC reachable, every chain read is N/A with a reason, never a number', async () => {
  await request(t.app)
    .post('/api/v1/svc/map/venues/refresh')
    .set('X-API-Key', testKeys.keeper)
    .expect(200);
  for (const entry of await strategies()) {
    expect(entry.grossApyBps).toBeNull();
    expect(entry.caps.totalUnits).toBeNull();
    expect(entry.caps.maxUnits).toBeNull();
    expect(entry.caps.reason).toEqual(expect.any(String));
    expect(entry.tvl.nativeUnits).toBeNull();
    expect(entry.tvl.reason).toEqual(expect.any(String));
  }
});

it('a profile id of the wrong format stops the service at start, in one line naming it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-profile-'));
  writeFileSync(
    path.join(dir, 'morpho.json'),
    JSON.stringify({ vault: { id: '0xnot-an-address', source: 'test' } }),
  );
  const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, [path.join(__dirname, 'server.ts')], {
    env: { ...process.env, NODE_OPTIONS: '', PORT: '0', SVC_PROFILE: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^configuration error: invalid setting SVC_PROFILE: /);
  expect(lines[0]).toContain(path.join(dir, 'morpho.json'));
  expect(lines[0]).toContain('morpho.vault');
});
