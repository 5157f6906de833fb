import { deployCheatingBeds } from '@yieldrouter/chain-beds/evm';
import type { CheatingBeds } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild, UnsignedPayload, VenueOnChain } from '@yieldrouter/schemas';
import { createEvmAdapter } from './createEvmAdapter';
import { last, ownerWallet, useTestVenueBed, venueTarget } from './testVenueBed';

// Issue 44: a plan's EVM legs simulated with eth_simulateV1 on anvil, compared with what the
// mined transactions moved; and the two cheating beds (a fee-on-transfer token, a vault that
// skims withdrawals once the plan was simulated) showing up in the simulation or the receipt.

const bed = useTestVenueBed();
let cheats: CheatingBeds;

beforeAll(async () => {
  cheats = await deployCheatingBeds({
    rpcUrl: bed.anvil.rpcUrl,
    chainId: 8453,
    usdc: bed.fixtures.usdc,
  });
});

const payloadsOf = (build: LegBuild): UnsignedPayload[] => {
  if (build.status !== 'prepared') throw new Error(JSON.stringify(build.blockers));
  return build.legs.map((leg) => leg.payload);
};

const erc4626 = (venueId: string, vault: string): VenueOnChain => ({
  venueId,
  chain: 'base',
  standard: 'erc4626',
  ids: { vault },
});

it('an honest deposit: the simulation is exactly what the mined legs moved', async () => {
  const owner = ownerWallet(bed.anvil, 1);
  await bed.fixtures.mintUsdc(owner.address, 10_000_000n);
  const request = {
    planId: newPlanId(),
    owner: owner.address,
    amountMicros: 4_000_000n,
    target: venueTarget(bed.vault),
  };
  const build = await bed.adapter.buildDeposit(request);
  const simulation = await bed.adapter.simulateLegs({
    owner: owner.address,
    payloads: payloadsOf(build),
  });
  if (simulation.status !== 'ok') throw new Error(simulation.detail);
  expect(simulation.usdc).toBe(bed.fixtures.usdc);
  expect(simulation.legs.map((leg) => leg.outcome)).toEqual(['ok', 'ok']);
  expect(simulation.legs[0]?.changes).toEqual([]);
  // The approval moves no balance: it is the vault's allowance over the owner's USDC.
  expect(simulation.legs[0]?.approvals).toEqual([
    {
      holder: owner.address,
      spender: bed.fixtures.vault,
      asset: bed.fixtures.usdc,
      allowance: 4_000_000n,
    },
  ]);
  expect(simulation.legs.map((leg) => leg.calls)).toEqual([
    [bed.fixtures.usdc],
    [bed.fixtures.vault],
  ]);
  expect(simulation.legs[1]?.changes).toEqual([
    { account: owner.address, asset: bed.fixtures.usdc, delta: -4_000_000n },
    { account: bed.fixtures.vault, asset: bed.fixtures.usdc, delta: 4_000_000n },
    { account: owner.address, asset: bed.fixtures.vault, delta: 4_000_000n },
  ]);

  const hashes = await owner.send(build);
  expect(await bed.adapter.readLegChanges(last(hashes))).toEqual({
    status: 'ok',
    changes: simulation.legs[1]?.changes,
  });
});

it('a fee-on-transfer token: the simulation shows the venue receiving less, and who took it', async () => {
  const owner = ownerWallet(bed.anvil, 2);
  await cheats.mintFeeToken(owner.address, 10_000_000n);
  const adapter = createEvmAdapter({
    chain: 'base',
    rpcUrl: bed.anvil.rpcUrl,
    timeoutMs: 2_000,
    usdcAddress: cheats.feeToken,
    registryAddress: bed.fixtures.registry,
  });
  const venue = erc4626('fee-vault', cheats.feeTokenVault);
  const build = await adapter.buildDeposit({
    planId: newPlanId(),
    owner: owner.address,
    amountMicros: 5_000_000n,
    target: venueTarget(venue),
  });
  const simulation = await adapter.simulateLegs({
    owner: owner.address,
    payloads: payloadsOf(build),
  });
  if (simulation.status !== 'ok') throw new Error(simulation.detail);
  expect(simulation.legs[1]?.changes).toEqual(
    expect.arrayContaining([
      { account: owner.address, asset: cheats.feeToken, delta: -5_000_000n },
      { account: cheats.feeTokenVault, asset: cheats.feeToken, delta: 4_950_000n },
      { account: cheats.feeCollector, asset: cheats.feeToken, delta: 50_000n },
    ]),
  );
});

it('a skimming vault: honest when simulated, the mined withdrawal pays the owner less', async () => {
  const owner = ownerWallet(bed.anvil, 3);
  await bed.fixtures.mintUsdc(owner.address, 10_000_000n);
  const venue = erc4626('skim-vault', cheats.skimmingVault);
  const target = venueTarget(venue);
  await owner.send(
    await bed.adapter.buildDeposit({
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 8_000_000n,
      target,
    }),
  );
  const planId = newPlanId();
  const withdraw = await bed.adapter.buildWithdraw({
    planId,
    owner: owner.address,
    amountMicros: 8_000_000n,
    target,
  });
  const simulation = await bed.adapter.simulateLegs({
    owner: owner.address,
    payloads: payloadsOf(withdraw),
  });
  if (simulation.status !== 'ok') throw new Error(simulation.detail);
  const simulated = last(simulation.legs).changes;
  expect(simulated).toEqual(
    expect.arrayContaining([
      { account: owner.address, asset: bed.fixtures.usdc, delta: 8_000_000n },
      { account: cheats.skimmingVault, asset: bed.fixtures.usdc, delta: -8_000_000n },
    ]),
  );

  await cheats.setSkimBps(500n);
  const hashes = await owner.send(withdraw);
  const actual = await bed.adapter.readLegChanges(last(hashes));
  expect(actual).toEqual({
    status: 'ok',
    changes: expect.arrayContaining([
      { account: owner.address, asset: bed.fixtures.usdc, delta: 7_600_000n },
      { account: cheats.skimmer, asset: bed.fixtures.usdc, delta: 400_000n },
    ]),
  });
  // The vault's own event claims the full amount: only the token's logs tell.
  expect(
    await bed.adapter.readReceipt({
      txId: last(hashes),
      planId,
      owner: owner.address,
      action: 'withdraw',
      target,
    }),
  ).toMatchObject({ status: 'confirmed', amountMicros: 8_000_000n });
});

it('no RPC: the simulation is unavailable, never an outcome', async () => {
  const adapter = createEvmAdapter({
    chain: 'base',
    rpcUrl: undefined,
    timeoutMs: 2_000,
    usdcAddress: bed.fixtures.usdc,
    registryAddress: undefined,
  });
  const owner = ownerWallet(bed.anvil, 4).address;
  const build = await bed.adapter.buildDeposit({
    planId: newPlanId(),
    owner,
    amountMicros: 1_000_000n,
    target: venueTarget(bed.vault),
  });
  expect(await adapter.simulateLegs({ owner, payloads: payloadsOf(build) })).toMatchObject({
    status: 'unavailable',
    reason: 'rpc_not_configured',
  });
  expect(await adapter.readLegChanges(`0x${'1'.repeat(64)}`)).toMatchObject({
    status: 'unavailable',
    reason: 'rpc_not_configured',
  });
});
