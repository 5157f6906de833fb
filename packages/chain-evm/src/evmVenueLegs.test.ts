import { anvilChain, deployEvmFixtures, startAnvil } from '@yieldrouter/chain-beds/evm';
import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegBuild, LegTarget, Receipt, VenueOnChain } from '@yieldrouter/schemas';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';

// A deposit into the bed's ERC-4626 vault (and the Aave stand-in), end to end on anvil: the
// adapter builds the legs, the owner's wallet (the test holds the anvil key) signs and sends
// them, and the adapter reads the receipts back from the chain.

const CHAIN_ID = 8453;
let anvil: AnvilInstance;
let fixtures: EvmFixtures;
let adapter: EvmChainAdapter;
let vault: VenueOnChain;
let aave: VenueOnChain;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID });
  adapter = createEvmAdapter({
    chain: 'base',
    rpcUrl: anvil.rpcUrl,
    timeoutMs: 2_000,
    usdcAddress: fixtures.usdc,
    registryAddress: fixtures.registry,
  });
  vault = {
    venueId: 'bed-vault',
    chain: 'base',
    standard: 'erc4626',
    ids: { vault: fixtures.vault },
  };
  aave = {
    venueId: 'bed-aave',
    chain: 'base',
    standard: 'aave-v3',
    ids: { pool: fixtures.aavePool, aToken: fixtures.aToken },
  };
});
afterAll(() => anvil?.stop());

/** The owner's wallet: anvil account `index`, signing locally as a real wallet would. */
function ownerWallet(index: number) {
  const key = anvil.accounts[index]?.privateKey;
  if (!key) throw new Error(`no anvil account ${index}`);
  const account = privateKeyToAccount(key);
  const chain = anvilChain(CHAIN_ID, anvil.rpcUrl);
  const transport = http(anvil.rpcUrl);
  const wallet = createWalletClient({ account, chain, transport });
  const reader = createPublicClient({ chain, transport });
  /** A fixed gas limit skips estimation, so a reverting transaction is still mined. */
  const sendRaw = async (to: Address, data: Hex): Promise<Hash> => {
    const hash = await wallet.sendTransaction({ to, data, gas: 300_000n });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    return hash;
  };
  return {
    address: account.address,
    sendRaw,
    /** Signs and sends each leg in order, as the owner's wallet would. */
    async send(build: LegBuild): Promise<Hash[]> {
      if (build.status !== 'prepared')
        throw new Error(`blocked: ${JSON.stringify(build.blockers)}`);
      const hashes: Hash[] = [];
      for (const leg of build.legs) {
        if (leg.payload.encoding !== 'evm-transaction-request') throw new Error('not EVM');
        const { to, data, from, chainId } = leg.payload.transaction;
        expect(from).toBe(account.address);
        expect(chainId).toBe(CHAIN_ID);
        hashes.push(await sendRaw(to as Address, data as Hex));
      }
      return hashes;
    },
  };
}

function venueTarget(venue: VenueOnChain): LegTarget {
  return { kind: 'venue', venue };
}

function last<T>(items: readonly T[]): T {
  const item = items[items.length - 1];
  if (item === undefined) throw new Error('empty');
  return item;
}

describe('ERC-4626 vault on anvil', () => {
  it('deposit: legs sent by the owner settle; the receipt is confirmed with the exact amount', async () => {
    const owner = ownerWallet(1);
    await fixtures.mintUsdc(owner.address, 50_000_000n);
    const planId = newPlanId();
    const request = {
      planId,
      owner: owner.address,
      amountMicros: 12_500_000n,
      target: venueTarget(vault),
    };
    const hashes = await owner.send(await adapter.buildDeposit(request));
    expect(hashes).toHaveLength(2);

    const receipt = await adapter.readReceipt({
      ...request,
      txId: last(hashes),
      action: 'deposit',
    });
    expect(receipt).toEqual({
      status: 'confirmed',
      txId: last(hashes),
      planId,
      amountMicros: 12_500_000n,
      shares: 12_500_000n,
      block: expect.stringMatching(/^[1-9][0-9]*$/),
    });
    const [, usdc] = await adapter.readBalances(owner.address);
    expect(usdc).toMatchObject({ status: 'ok', amount: 37_500_000n });
    expect(await adapter.readPosition(vault, owner.address, 12_500_000n)).toMatchObject({
      status: 'ok',
      ownerShares: 12_500_000n,
      sharesValueMicros: 12_500_000n,
      ownerValueMicros: 12_500_000n,
      block: expect.stringMatching(/^[1-9][0-9]*$/),
    });

    // The same transaction read for another plan, by another owner, or as the approve leg.
    expect(
      await adapter.readReceipt({
        ...request,
        planId: newPlanId(),
        txId: last(hashes),
        action: 'deposit',
      }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/^tagged for plan_/) });
    expect(
      await adapter.readReceipt({
        ...request,
        owner: ownerWallet(2).address,
        txId: last(hashes),
        action: 'deposit',
      }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/not the owner/) });
    expect(
      await adapter.readReceipt({ ...request, txId: hashes[0] as Hash, action: 'deposit' }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringMatching(/^sent to 0x/) });
    expect(
      await adapter.readReceipt({ ...request, txId: last(hashes), action: 'withdraw' }),
    ).toMatchObject({ status: 'mismatch', reason: 'no withdraw by the owner in the logs' });
  });

  it('a deposit without its approve is mined, reverted: failed', async () => {
    const owner = ownerWallet(4);
    await fixtures.mintUsdc(owner.address, 1_000_000n);
    const planId = newPlanId();
    const request = {
      planId,
      owner: owner.address,
      amountMicros: 1_000_000n,
      target: venueTarget(vault),
    };
    const build = await adapter.buildDeposit(request);
    if (build.status !== 'prepared') throw new Error('blocked');
    const [hash] = await owner.send({ status: 'prepared', legs: build.legs.slice(1) });
    expect(
      await adapter.readReceipt({ ...request, txId: hash as Hash, action: 'deposit' }),
    ).toEqual({
      status: 'failed',
      txId: hash,
      reason: expect.stringMatching(/^reverted in block \d+$/),
    });
  });

  it('withdraw: confirmed with the exact amount; position value follows simulated yield', async () => {
    const owner = ownerWallet(5);
    await fixtures.mintUsdc(owner.address, 20_000_000n);
    const deposit = {
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 20_000_000n,
      target: venueTarget(vault),
    };
    await owner.send(await adapter.buildDeposit(deposit));
    const before = await adapter.readPosition(vault, owner.address, 1_000_000n);
    if (before.status !== 'ok') throw new Error(JSON.stringify(before));
    expect(before.ownerValueMicros).toBe(20_000_000n);

    // Yield accrues to every share: the same shares are worth more, read from convertToAssets.
    await fixtures.simulateYield(10_000_000n);
    const after = await adapter.readPosition(vault, owner.address, 1_000_000n);
    if (after.status !== 'ok') throw new Error(JSON.stringify(after));
    expect(after.ownerShares).toBe(before.ownerShares);
    expect(after.ownerValueMicros).toBeGreaterThan(before.ownerValueMicros);
    expect(after.sharesValueMicros).toBeGreaterThan(before.sharesValueMicros);
    expect(after.asOf).toBeInstanceOf(Date);

    const withdraw = {
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 7_000_000n,
      target: venueTarget(vault),
    };
    const [hash] = await owner.send(await adapter.buildWithdraw(withdraw));
    expect(
      await adapter.readReceipt({ ...withdraw, txId: hash as Hash, action: 'withdraw' }),
    ).toMatchObject({
      status: 'confirmed',
      planId: withdraw.planId,
      amountMicros: 7_000_000n,
    });
    const [, usdc] = await adapter.readBalances(owner.address);
    expect(usdc).toMatchObject({ status: 'ok', amount: 7_000_000n });
  });

  it('an unknown transaction is pending; a malformed txId throws', async () => {
    const query = {
      txId: `0x${'ab'.repeat(32)}`,
      planId: newPlanId(),
      owner: ownerWallet(1).address,
      action: 'deposit',
      target: venueTarget(vault),
    } as const;
    expect(await adapter.readReceipt(query)).toEqual({ status: 'pending', txId: query.txId });
    await expect(adapter.readReceipt({ ...query, txId: '0x1234' })).rejects.toMatchObject({
      name: 'InvalidChainInputError',
      field: 'txId',
    });
  });

  it('a transaction without a plan tag is a mismatch', async () => {
    const owner = ownerWallet(6);
    const txId = await owner.sendRaw(fixtures.vault, '0x');
    const receipt: Receipt = await adapter.readReceipt({
      txId,
      planId: newPlanId(),
      owner: owner.address,
      action: 'deposit',
      target: venueTarget(vault),
    });
    expect(receipt).toMatchObject({
      status: 'mismatch',
      reason: 'the calldata carries no plan tag',
    });
  });
});

describe('Aave v3 stand-in on anvil', () => {
  it('supply and withdraw settle; amounts come from the USDC transfers', async () => {
    const owner = ownerWallet(7);
    await fixtures.mintUsdc(owner.address, 9_000_000n);
    const deposit = {
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 9_000_000n,
      target: venueTarget(aave),
    };
    const hashes = await owner.send(await adapter.buildDeposit(deposit));
    expect(
      await adapter.readReceipt({ ...deposit, txId: last(hashes), action: 'deposit' }),
    ).toMatchObject({
      status: 'confirmed',
      amountMicros: 9_000_000n,
    });
    expect(await adapter.readPosition(aave, owner.address, 9_000_000n)).toMatchObject({
      status: 'ok',
      ownerShares: 9_000_000n,
      ownerValueMicros: 9_000_000n,
    });

    const withdraw = {
      planId: newPlanId(),
      owner: owner.address,
      amountMicros: 4_000_000n,
      target: venueTarget(aave),
    };
    const [hash] = await owner.send(await adapter.buildWithdraw(withdraw));
    expect(
      await adapter.readReceipt({ ...withdraw, txId: hash as Hash, action: 'withdraw' }),
    ).toMatchObject({
      status: 'confirmed',
      amountMicros: 4_000_000n,
    });
    expect(await adapter.readPosition(aave, owner.address, 5_000_000n)).toMatchObject({
      status: 'ok',
      ownerShares: 5_000_000n,
      ownerValueMicros: 5_000_000n,
    });
  });
});

describe('readPosition', () => {
  it('is 0 for a wallet without shares, and no_standard_reader for router-adapter venues', async () => {
    const nobody = '0x000000000000000000000000000000000000dEaD';
    expect(await adapter.readPosition(vault, nobody, 0n)).toMatchObject({
      status: 'ok',
      ownerShares: 0n,
      sharesValueMicros: 0n,
      ownerValueMicros: 0n,
    });
    expect(
      await adapter.readPosition(
        { venueId: 'r', chain: 'base', standard: 'router-adapter', ids: {} },
        nobody,
        0n,
      ),
    ).toMatchObject({ status: 'unavailable', reason: 'no_standard_reader' });
    await expect(adapter.readPosition(vault, 'nope', 0n)).rejects.toMatchObject({
      field: 'owner',
    });
  });
});

describe('readRegistryFeeConfig', () => {
  it('reads 500 / 0 / 1000 bps from the deployed registry', async () => {
    expect(await adapter.readRegistryFeeConfig()).toEqual({
      status: 'ok',
      yieldSkimBps: 500,
      depositFeeBps: 0,
      maxYieldSkimBps: 1000,
    });
  });

  it('without a registry address it is unavailable, never a default', async () => {
    const bare = createEvmAdapter({
      chain: 'base',
      rpcUrl: anvil.rpcUrl,
      timeoutMs: 2_000,
      usdcAddress: fixtures.usdc,
      registryAddress: undefined,
    });
    expect(await bare.readRegistryFeeConfig()).toMatchObject({
      status: 'unavailable',
      reason: 'asset_not_configured',
    });
  });
});
