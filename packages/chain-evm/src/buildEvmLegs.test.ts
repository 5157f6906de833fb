import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { decodeFunctionData, erc20Abi as publishedErc20Abi } from 'viem';
import type { Hex } from 'viem';
import { aaveV3PoolAbi, erc20Abi, erc4626Abi } from './abis';
import { createEvmAdapter } from './createEvmAdapter';
import { readPlanTag } from './planTag';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const VAULT = '0x1111111111111111111111111111111111111111';
const POOL = '0x2222222222222222222222222222222222222222';
const A_TOKEN = '0x3333333333333333333333333333333333333333';
const REGISTRY = '0x4444444444444444444444444444444444444444';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PLAN = 'plan_00112233445566778899aabbccddeeff';

const vault: VenueOnChain = {
  venueId: 'bed-vault',
  chain: 'base',
  standard: 'erc4626',
  ids: { vault: VAULT },
};
const aave: VenueOnChain = {
  venueId: 'aave-usdc',
  chain: 'base',
  standard: 'aave-v3',
  ids: { pool: POOL, aToken: A_TOKEN },
};

// No RPC: building legs is offline.
const adapter = createEvmAdapter({
  chain: 'base',
  rpcUrl: undefined,
  timeoutMs: 1_000,
  usdcAddress: USDC,
  registryAddress: undefined,
});

function request(venue: VenueOnChain, overrides: Partial<LegRequest> = {}): LegRequest {
  return {
    planId: PLAN,
    owner: OWNER,
    amountMicros: 12_500_000n,
    target: { kind: 'venue', venue },
    ...overrides,
  };
}

function transactionOf(leg: UnsignedLeg | undefined) {
  if (leg?.payload.encoding !== 'evm-transaction-request') throw new Error('not an EVM leg');
  return leg.payload.transaction;
}

/** The calldata without its 20-byte plan tag. */
function callOf(leg: UnsignedLeg | undefined): Hex {
  const data = transactionOf(leg).data;
  expect(readPlanTag(data)).toBe(PLAN);
  return data.slice(0, -40) as Hex;
}

describe('buildDeposit', () => {
  it('erc4626: approve the vault, then deposit(amount, owner), both tagged', async () => {
    const build = await adapter.buildDeposit(request(vault));
    if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
    const [approve, deposit] = build.legs;
    expect(build.legs).toHaveLength(2);

    expect(approve).toMatchObject({ chain: 'base', action: 'approve', settles: false });
    expect(transactionOf(approve)).toMatchObject({
      chainId: 8453,
      from: OWNER,
      to: USDC,
      value: '0',
    });
    expect(decodeFunctionData({ abi: erc20Abi, data: callOf(approve) })).toEqual({
      functionName: 'approve',
      args: [VAULT, 12_500_000n],
    });

    expect(deposit).toMatchObject({
      action: 'deposit',
      settles: true,
      planId: PLAN,
      amountMicros: 12_500_000n,
    });
    expect(transactionOf(deposit).to).toBe(VAULT);
    expect(decodeFunctionData({ abi: erc4626Abi, data: callOf(deposit) })).toEqual({
      functionName: 'deposit',
      args: [12_500_000n, OWNER],
    });
    expect(deposit?.summary).toBe(
      `Deposit 12.5 USDC into vault ${VAULT} (venue bed-vault) on Base`,
    );
  });

  it('aave-v3: approve the pool, then supply(USDC, amount, owner, 0)', async () => {
    const build = await adapter.buildDeposit(request(aave));
    if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
    const [approve, supply] = build.legs;
    expect(decodeFunctionData({ abi: erc20Abi, data: callOf(approve) }).args).toEqual([
      POOL,
      12_500_000n,
    ]);
    expect(transactionOf(supply).to).toBe(POOL);
    expect(decodeFunctionData({ abi: aaveV3PoolAbi, data: callOf(supply) })).toEqual({
      functionName: 'supply',
      args: [USDC, 12_500_000n, OWNER, 0],
    });
  });

  it('checksums a lowercase owner into the transaction', async () => {
    const build = await adapter.buildDeposit(request(vault, { owner: OWNER.toLowerCase() }));
    if (build.status !== 'prepared') throw new Error('blocked');
    expect(transactionOf(build.legs[1]).from).toBe(OWNER);
  });

  it('on Arbitrum, uses chain id 42161', async () => {
    const arbitrum = createEvmAdapter({
      chain: 'arbitrum',
      rpcUrl: undefined,
      timeoutMs: 1_000,
      usdcAddress: USDC,
      registryAddress: undefined,
    });
    const build = await arbitrum.buildDeposit(request({ ...vault, chain: 'arbitrum' }));
    if (build.status !== 'prepared') throw new Error('blocked');
    expect(transactionOf(build.legs[0]).chainId).toBe(42161);
    expect(build.legs[1]?.summary).toMatch(/on Arbitrum$/);
  });
});

describe('buildWithdraw', () => {
  it('erc4626: one settling leg, withdraw(amount, owner, owner)', async () => {
    const build = await adapter.buildWithdraw(request(vault, { amountMicros: 5_000_000n }));
    if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
    expect(build.legs).toHaveLength(1);
    expect(build.legs[0]).toMatchObject({ action: 'withdraw', settles: true });
    expect(decodeFunctionData({ abi: erc4626Abi, data: callOf(build.legs[0]) })).toEqual({
      functionName: 'withdraw',
      args: [5_000_000n, OWNER, OWNER],
    });
  });

  it('aave-v3: pool.withdraw(USDC, amount, owner)', async () => {
    const build = await adapter.buildWithdraw(request(aave));
    if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
    expect(decodeFunctionData({ abi: aaveV3PoolAbi, data: callOf(build.legs[0]) })).toEqual({
      functionName: 'withdraw',
      args: [USDC, 12_500_000n, OWNER],
    });
  });
});

describe('blocked legs', () => {
  it('a venue without its vault id is venue_not_configured, naming the id', async () => {
    const build = await adapter.buildDeposit(request({ ...vault, ids: {} }));
    expect(build).toEqual({
      status: 'blocked',
      blockers: [
        expect.objectContaining({ code: 'venue_not_configured', field: 'venue.ids.vault' }),
      ],
    });
  });

  it('aave without pool and aToken lists both; a malformed id blocks too', async () => {
    const missing = await adapter.buildDeposit(request({ ...aave, ids: {} }));
    expect(missing.status === 'blocked' && missing.blockers.map((b) => b.field)).toEqual([
      'venue.ids.pool',
      'venue.ids.aToken',
    ]);
    const malformed = await adapter.buildWithdraw(
      request({ ...aave, ids: { pool: 'not-an-address', aToken: A_TOKEN } }),
    );
    expect(malformed).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'venue_not_configured', field: 'venue.ids.pool' }],
    });
  });

  it('without USDC, deposits are asset_not_configured (with the venue blockers)', async () => {
    const noUsdc = createEvmAdapter({
      chain: 'base',
      rpcUrl: undefined,
      timeoutMs: 1_000,
      usdcAddress: undefined,
      registryAddress: undefined,
    });
    expect(await noUsdc.buildDeposit(request(vault))).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'asset_not_configured', field: 'usdcAddress' }],
    });
    const both = await noUsdc.buildDeposit(request({ ...vault, ids: {} }));
    expect(both.status === 'blocked' && both.blockers.map((b) => b.code)).toEqual([
      'venue_not_configured',
      'asset_not_configured',
    ]);
    // An ERC-4626 withdrawal never names USDC; Aave's does.
    expect((await noUsdc.buildWithdraw(request(vault))).status).toBe('prepared');
    expect(await noUsdc.buildWithdraw(request(aave))).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'asset_not_configured' }],
    });
  });

  it('router targets: router_not_configured without a registry, else chain_not_write_ready', async () => {
    const router = { kind: 'router' } as const;
    expect(await adapter.buildDeposit(request(vault, { target: router }))).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'router_not_configured', field: 'registryAddress' }],
    });
    const withRegistry = createEvmAdapter({
      chain: 'base',
      rpcUrl: undefined,
      timeoutMs: 1_000,
      usdcAddress: USDC,
      registryAddress: REGISTRY,
    });
    for (const build of [
      await withRegistry.buildDeposit(request(vault, { target: router })),
      await withRegistry.buildWithdraw(request(vault, { target: router })),
    ]) {
      expect(build).toMatchObject({
        status: 'blocked',
        blockers: [{ code: 'chain_not_write_ready' }],
      });
    }
  });

  it('router-adapter venues do not exist on EVM', async () => {
    const build = await adapter.buildDeposit(
      request({ venueId: 'r', chain: 'base', standard: 'router-adapter', ids: {} }),
    );
    expect(build).toMatchObject({ status: 'blocked', blockers: [{ code: 'venue_not_ready' }] });
  });
});

describe('bad input', () => {
  it.each([
    ['amountMicros', { amountMicros: 0n }],
    ['amountMicros', { amountMicros: -1n }],
    ['amountMicros', { amountMicros: 2n ** 63n }],
    ['owner', { owner: '0x123' }],
    ['owner', { owner: OWNER.replace('f39F', 'F39f') }],
    ['planId', { planId: 'plan_123' }],
  ] as const)('throws InvalidChainInputError(%s)', async (field, overrides) => {
    const attempt = adapter.buildDeposit(request(vault, overrides));
    await expect(attempt).rejects.toThrow(InvalidChainInputError);
    await expect(attempt).rejects.toMatchObject({ field });
  });

  it('refuses a venue of another chain', async () => {
    await expect(
      adapter.buildWithdraw(request({ ...vault, chain: 'arbitrum' })),
    ).rejects.toMatchObject({ field: 'target' });
  });

  it('refuses a malformed configured address at construction', () => {
    expect(() =>
      createEvmAdapter({
        chain: 'base',
        rpcUrl: undefined,
        timeoutMs: 1_000,
        usdcAddress: USDC.replace('833589fCD6eDb', '833589FCD6eDb'),
        registryAddress: undefined,
      }),
    ).toThrow(/usdcAddress/);
  });
});

describe('broadcast', () => {
  it('always refuses on a Map chain', async () => {
    expect(await adapter.broadcast({ transaction: '0x02f8' })).toMatchObject({
      status: 'refused',
      blocker: { code: 'chain_not_write_ready' },
    });
  });
});

describe('normalizeAddress', () => {
  it('checksums lowercase, keeps a valid checksum, refuses a bad one', () => {
    expect(adapter.normalizeAddress(OWNER.toLowerCase())).toBe(OWNER);
    expect(adapter.normalizeAddress(OWNER)).toBe(OWNER);
    expect(adapter.normalizeAddress(OWNER.replace('f39F', 'F39f'))).toBeUndefined();
    expect(adapter.normalizeAddress('0x123')).toBeUndefined();
    expect(adapter.normalizeAddress(`${OWNER}00`)).toBeUndefined();
  });
});

// Issue #46: where the owner holds the receipts (plain EVM venues), the withdraw plan carries the
// skim to the chain's treasury as its next leg, an ERC-20 transfer checked against viem's ABI.
describe('buildWithdraw with a skim to the treasury', () => {
  const TREASURY = '0x5555555555555555555555555555555555555555';
  const skimmed = (venue: VenueOnChain, amountMicros: bigint) =>
    adapter.buildWithdraw(
      request(venue, { amountMicros: 5_022_831n, skim: { recipient: TREASURY, amountMicros } }),
    );

  it.each([
    ['erc4626', vault],
    ['aave-v3', aave],
  ])('%s: withdraw the gross, then transfer(treasury, skim) of USDC, tagged', async (_, venue) => {
    const build = await skimmed(venue, 22_831n);
    if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
    const [withdraw, skim] = build.legs;
    expect(build.legs).toHaveLength(2);
    expect(withdraw).toMatchObject({ action: 'withdraw', settles: true, amountMicros: 5_022_831n });
    const decoded =
      venue.standard === 'erc4626'
        ? decodeFunctionData({ abi: erc4626Abi, data: callOf(withdraw) }).args
        : decodeFunctionData({ abi: aaveV3PoolAbi, data: callOf(withdraw) }).args;
    expect(decoded).toContain(5_022_831n);
    expect(skim).toMatchObject({ action: 'transfer', settles: true, amountMicros: 22_831n });
    expect(transactionOf(skim)).toMatchObject({ from: OWNER, to: USDC });
    expect(decodeFunctionData({ abi: publishedErc20Abi, data: callOf(skim) })).toEqual({
      functionName: 'transfer',
      args: [TREASURY, 22_831n],
    });
    expect(skim?.summary).toBe(`Send 0.022831 USDC to ${TREASURY} on Base`);
  });

  it('a skim of 0 (no yield to share) adds no leg', async () => {
    const build = await skimmed(vault, 0n);
    expect(build.status === 'prepared' && build.legs.length).toBe(1);
  });

  it('refuses a skim above the withdrawal or a malformed treasury, naming the field', async () => {
    await expect(skimmed(vault, 5_022_832n)).rejects.toMatchObject({
      field: 'skim.amountMicros',
    });
    await expect(
      adapter.buildWithdraw(request(vault, { skim: { recipient: 'nope', amountMicros: 1n } })),
    ).rejects.toBeInstanceOf(InvalidChainInputError);
  });
});
