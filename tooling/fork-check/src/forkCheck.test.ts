import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deployEvmFixtures, startAnvil } from '@yieldrouter/chain-beds/evm';
import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { forkCheck } from './forkCheck';

// `pnpm fork:check` offline: instead of forking Base, it is pointed at a local anvil with the
// bed's contracts (Aave v3.5 stand-in, ERC-4626 vault), named by a profile of their addresses.

jest.setTimeout(120_000);

let anvil: AnvilInstance;
let fixtures: EvmFixtures;
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 8453 });
  fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId: 8453 });
});
afterAll(() => anvil?.stop());

function profileOf(files: Record<string, Record<string, string>>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fork-profile-'));
  for (const [venueId, ids] of Object.entries(files)) {
    const entries = Object.fromEntries(
      Object.entries(ids).map(([name, id]) => [name, { id, source: 'the local bed' }]),
    );
    writeFileSync(path.join(dir, `${venueId}.json`), JSON.stringify(entries));
  }
  return dir;
}

const run = (profile: string) =>
  forkCheck(
    {
      SVC_PROFILE: profile,
      SVC_BASE_USDC_ADDRESS: fixtures.usdc,
      FORK_CHECK_BASE_NODE_URL: anvil.rpcUrl,
      FORK_CHECK_AMOUNT_MICROS: '7000000',
    },
    () => undefined,
  );

it('deposits, settles, values and withdraws at each venue the profile names', async () => {
  const report = await run(
    profileOf({
      'aave-v3': { pool: fixtures.aavePool, aToken: fixtures.aToken },
      morpho: { vault: fixtures.vault },
    }),
  );
  expect(report.outcomes.map((outcome) => [outcome.venueId, outcome.ok])).toEqual([
    ['aave-v3', true],
    ['morpho', true],
  ]);
  expect(report.ok).toBe(true);
  expect(report.lines).toEqual(
    expect.arrayContaining([
      'base aave-v3: deposit confirmed: 7000000 micros, 7000000 shares',
      expect.stringMatching(/^base morpho: withdraw confirmed: 7000000 micros, \d+ shares$/),
      'arbitrum: skipped (set ARBITRUM_RPC_URL to fork it)',
      'fork check passed',
    ]),
  );
});

it('fails, saying where, when a venue does not accept the calls', async () => {
  // The aToken is no ERC-4626 vault: the deposit reverts or never settles.
  const report = await run(profileOf({ morpho: { vault: fixtures.aToken } }));
  expect(report.ok).toBe(false);
  expect(report.outcomes).toEqual([
    {
      venueId: 'morpho',
      ok: false,
      steps: expect.arrayContaining([expect.stringMatching(/^deposit|^failed/)]),
    },
  ]);
  expect(report.lines).toContain('base aave-v3: skipped (no pool, aToken in the profile)');
  expect(report.lines.at(-1)).toBe('fork check FAILED');
});

it('runs Silo on Arbitrum from its SiloConfig alone: the legs find the USDC silo', async () => {
  const arbitrum = await startAnvil({ chainId: 42161 });
  try {
    const bed = await deployEvmFixtures({ rpcUrl: arbitrum.rpcUrl, chainId: 42161 });
    const report = await forkCheck(
      {
        SVC_PROFILE: profileOf({ silo: { siloConfig: bed.siloConfig } }),
        SVC_ARBITRUM_USDC_ADDRESS: bed.usdc,
        FORK_CHECK_ARBITRUM_NODE_URL: arbitrum.rpcUrl,
        FORK_CHECK_AMOUNT_MICROS: '7000000',
      },
      () => undefined,
    );
    expect(report.outcomes.map((outcome) => [outcome.venueId, outcome.ok])).toEqual([
      ['silo', true],
    ]);
    expect(report.lines).toEqual(
      expect.arrayContaining([
        'arbitrum fluid: skipped (no vault in the profile)',
        'arbitrum silo: deposit confirmed: 7000000 micros, 7000000 shares',
        'fork check passed',
      ]),
    );
  } finally {
    await arbitrum.stop();
  }
});
