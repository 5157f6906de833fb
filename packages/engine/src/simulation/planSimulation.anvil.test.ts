import { anvilChain, deployCheatingBeds, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { CheatingBeds, EvmBed } from '@yieldrouter/chain-beds/evm';
import { createEvmAdapter } from '@yieldrouter/chain-evm';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { PlanDocument } from '@yieldrouter/schemas';
import type { PlanLegInput } from '@yieldrouter/ledger';
import { createPublicClient, createWalletClient, encodeFunctionData, erc20Abi, http } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainAdapters } from '../chains/chainsConfig';
import { readPlan } from '../plan/readPlan';
import { seedVenueCatalog } from '../venues/seedVenueCatalog';
import type { VenueConfig } from '../venues/venueConfig';
import { settleLeg } from '../wallet/settleLeg';
import { simulatePlan } from './simulatePlan';
import { prepareRebalanceAll, prepareVenuePlan } from './testing/prepareVenuePlan';

// Issue 44 end to end on anvil and PostgreSQL: a deposit plan into an ERC-4626 venue carries its
// simulated outcome (stored with it); settlement compares the mined deposit with it. Cheating
// beds: a fee-on-transfer token (caught by the simulation at prepare) and a vault that starts
// skimming deposits after the plan was simulated (caught at settlement: plan.divergence).

let bed: EvmBed;
let test: TestDatabase;
let cheats: CheatingBeds;

beforeAll(async () => {
  [bed, test] = await Promise.all([startEvmBed(), createTestDatabase()]);
  cheats = await deployCheatingBeds({
    rpcUrl: bed.adapterConfig.rpcUrl,
    chainId: 8453,
    usdc: bed.fixtures.usdc,
  });
  await seedVenueCatalog(test.db);
}, 180_000);
afterAll(async () => {
  await Promise.all([bed?.stop(), test?.drop()]);
});

const venuesWith = (vault: string): VenueConfig => ({
  ids: { morpho: { vault } },
  apyPools: {},
  apyMaxAgeMs: 3_600_000,
  apyMeanMinSamples: 1,
});

function adaptersFor(usdcAddress: string): ChainAdapters {
  const base = createEvmAdapter({
    chain: 'base',
    timeoutMs: 2_000,
    ...bed.adapterConfig,
    usdcAddress,
  });
  return { base } as unknown as ChainAdapters;
}

const prepareDeposit = (adapters: ChainAdapters, venues: VenueConfig, owner: string) =>
  prepareVenuePlan(
    { db: test.db, adapters, venues },
    { kind: 'deposit', id: 'morpho', owner, amountMicros: 4_000_000n },
  );

/** Signs and sends each leg as the owner's wallet would; the hashes in order. */
async function send(index: number, plan: PlanDocument): Promise<Hash[]> {
  const key = bed.anvil.accounts[index]?.privateKey;
  if (!key) throw new Error('no key');
  const chain = anvilChain(8453, bed.adapterConfig.rpcUrl);
  const transport = http(bed.adapterConfig.rpcUrl);
  const wallet = createWalletClient({ account: privateKeyToAccount(key), chain, transport });
  const reader = createPublicClient({ chain, transport });
  const hashes: Hash[] = [];
  for (const leg of plan.legs ?? []) {
    if (typeof leg.transaction === 'string') throw new Error('not EVM');
    const hash = await wallet.sendTransaction({
      to: leg.transaction.to as Address,
      data: leg.transaction.data as Hex,
      gas: 300_000n,
    });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    hashes.push(hash);
  }
  return hashes;
}

const ownerOf = (index: number) => bed.anvil.accounts[index]?.address as Address;

it('an honest deposit: simulated with no findings, settled with no divergence', async () => {
  const owner = ownerOf(1);
  await bed.fixtures.mintUsdc(owner, 10_000_000n);
  const adapters = adaptersFor(bed.fixtures.usdc);
  const plan = await prepareDeposit(adapters, venuesWith(cheats.skimmingVault), owner);
  expect(plan.status).toBe('prepared');
  expect(plan.simulation).toMatchObject({
    status: 'simulated',
    method: 'eth_simulateV1',
    findings: [],
  });
  const stored = await readPlan(test.db, plan.planId as string);
  expect(stored.simulation).toEqual(plan.simulation);

  const hashes = await send(1, plan);
  const settled = await settleLeg({
    db: test.db,
    adapters,
    venues: venuesWith(cheats.skimmingVault),
    planId: plan.planId as string,
    legIndex: 1,
    txId: hashes[1] as Hash,
    now: new Date(),
  });
  expect(settled).toMatchObject({ status: 'confirmed', reviewReason: null });
  expect((await readPlan(test.db, plan.planId as string)).divergences).toEqual([]);
});

it('a fee-on-transfer token: the simulation at prepare shows the venue short and the collector paid', async () => {
  const owner = ownerOf(2);
  await cheats.mintFeeToken(owner, 10_000_000n);
  const plan = await prepareDeposit(
    adaptersFor(cheats.feeToken),
    venuesWith(cheats.feeTokenVault),
    owner,
  );
  expect(plan.simulation).toMatchObject({ status: 'simulated' });
  const findings = plan.simulation?.status === 'simulated' ? plan.simulation.findings : [];
  expect(findings.map((finding) => finding.code).sort()).toEqual([
    'unexpected_recipient',
    'venue_amount_mismatch',
  ]);
  expect(findings.find((finding) => finding.code === 'unexpected_recipient')?.message).toContain(
    cheats.feeCollector,
  );
});

it('a venue that starts skimming after the simulation: settlement records plan.divergence', async () => {
  const owner = ownerOf(3);
  await bed.fixtures.mintUsdc(owner, 10_000_000n);
  const adapters = adaptersFor(bed.fixtures.usdc);
  const venues = venuesWith(cheats.skimmingVault);
  const plan = await prepareDeposit(adapters, venues, owner);
  expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
  await cheats.setSkimBps(500n);
  try {
    const hashes = await send(3, plan);
    const planId = plan.planId as string;
    const settled = await settleLeg({
      db: test.db,
      adapters,
      venues,
      planId,
      legIndex: 1,
      txId: hashes[1] as Hash,
      now: new Date(),
    });
    // The books follow the receipt (the vault's Deposit event); the leg is flagged.
    expect(settled).toMatchObject({ status: 'confirmed' });
    const stored = await readPlan(test.db, planId);
    expect(stored.legs[1]?.reviewReason).toMatch(/diverged from its simulation/);
    expect(stored.divergences).toEqual([
      {
        legIndex: 1,
        txId: hashes[1],
        simulationDigest: plan.simulation?.status === 'simulated' ? plan.simulation.digest : '',
        changes: [
          {
            account: cheats.skimmingVault,
            role: 'venue',
            asset: bed.fixtures.usdc,
            simulated: '4000000',
            actual: '3800000',
          },
          {
            account: cheats.skimmer,
            role: 'other',
            asset: bed.fixtures.usdc,
            simulated: '0',
            actual: '200000',
          },
        ],
        recordedAt: expect.any(String),
      },
    ]);
    const events = await test.db.$queryRaw<{ type: string; payload: { planId: string } }[]>`
      SELECT type, payload FROM outbox_events WHERE type = 'plan.divergence'`;
    expect(events).toEqual([
      { type: 'plan.divergence', payload: expect.objectContaining({ planId, legIndex: 1 }) },
    ]);
  } finally {
    await cheats.setSkimBps(0n);
  }
});

it('an honest rebalance: each side simulated in order, settled with no divergence', async () => {
  const owner = ownerOf(4);
  await bed.fixtures.mintUsdc(owner, 10_000_000n);
  const adapters = adaptersFor(bed.fixtures.usdc);
  const venues: VenueConfig = {
    ...venuesWith(cheats.skimmingVault),
    ids: {
      morpho: { vault: cheats.skimmingVault },
      'aave-v3': { pool: bed.fixtures.aavePool, aToken: bed.fixtures.aToken },
    },
  };
  const deposit = await prepareDeposit(adapters, venues, owner);
  const depositHashes = await send(4, deposit);
  const settle = (planId: string, legIndex: number, txId: Hash) =>
    settleLeg({ db: test.db, adapters, venues, planId, legIndex, txId, now: new Date() });
  await settle(deposit.planId as string, 1, depositHashes[1] as Hash);

  const plan = await prepareRebalanceAll(
    { db: test.db, adapters, venues },
    { wallet: owner, from: 'morpho', to: 'aave-v3' },
  );
  expect(plan.status).toBe('prepared');
  expect(plan.simulation).toMatchObject({ status: 'simulated', findings: [] });
  const simulated = plan.simulation?.status === 'simulated' ? plan.simulation.legs : [];
  expect(simulated.map((leg) => leg.outcome)).toEqual(['ok', 'ok', 'ok']);
  expect(simulated[2]?.changes.filter((change) => change.usdc)).toEqual([
    expect.objectContaining({ account: owner, role: 'owner', delta: '-4000000' }),
    expect.objectContaining({ account: bed.fixtures.aToken, role: 'venue', delta: '4000000' }),
  ]);

  const hashes = await send(4, plan);
  const planId = plan.planId as string;
  expect(await settle(planId, 0, hashes[0] as Hash)).toMatchObject({ status: 'confirmed' });
  expect(await settle(planId, 2, hashes[2] as Hash)).toMatchObject({ status: 'confirmed' });
  expect((await readPlan(test.db, planId)).divergences).toEqual([]);
});

it('a venue that already skims deposits when the plan is prepared: caught by the simulation', async () => {
  const owner = ownerOf(5);
  await bed.fixtures.mintUsdc(owner, 10_000_000n);
  await cheats.setSkimBps(500n);
  try {
    const plan = await prepareDeposit(
      adaptersFor(bed.fixtures.usdc),
      venuesWith(cheats.skimmingVault),
      owner,
    );
    const findings = plan.simulation?.status === 'simulated' ? plan.simulation.findings : [];
    expect(findings.map((finding) => [finding.legIndex, finding.code]).sort()).toEqual([
      [1, 'unexpected_recipient'],
      [1, 'venue_amount_mismatch'],
    ]);
    expect(findings[0]?.message).toContain(cheats.skimmer);
  } finally {
    await cheats.setSkimBps(0n);
  }
});

it('an approval to a foreign spender, beyond the amount: recorded and found at simulation', async () => {
  const owner = ownerOf(6);
  const thief = ownerOf(7);
  const approveLeg = (spender: Address, amount: bigint): PlanLegInput => ({
    action: 'approve',
    summary: 'approve',
    amountMicros: 4_000_000n,
    settles: false,
    payload: {
      encoding: 'evm-transaction-request',
      transaction: {
        chainId: 8453,
        from: owner,
        to: bed.fixtures.usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'approve',
          args: [spender, amount],
        }),
        value: '0',
      },
    },
  });
  const simulate = (spender: Address, amount: bigint) =>
    simulatePlan({
      adapters: adaptersFor(bed.fixtures.usdc),
      planId: 'plan_00000000000000000000000000000044',
      chain: 'base',
      legs: [approveLeg(spender, amount)],
      roles: { owner, venue: [cheats.skimmingVault], treasury: [] },
    });
  const honest = await simulate(cheats.skimmingVault, 4_000_000n);
  expect(honest).toMatchObject({ status: 'simulated', findings: [] });
  const cheating = await simulate(thief, 8_000_000n);
  if (cheating.status !== 'simulated') throw new Error(JSON.stringify(cheating));
  // The approval is a change of the spender's allowance, with the spender's role.
  expect(cheating.legs[0]?.approvals).toEqual([
    {
      holder: owner,
      spender: thief,
      role: 'other',
      asset: bed.fixtures.usdc,
      usdc: true,
      allowance: '8000000',
    },
  ]);
  expect(cheating.findings.map((finding) => finding.code)).toEqual([
    'approval_foreign_spender',
    'approval_beyond_amount',
  ]);
});
