import type { AnvilInstance, EvmFixtures } from '@yieldrouter/chain-beds/evm';
import { newPlanId } from '@yieldrouter/schemas';
import { createEvmAdapter } from './createEvmAdapter';
import type { EvmChainAdapter } from './createEvmAdapter';
import { last, ownerWallet, startTestVenueBed } from './testVenueBed';

// Transfer legs (auto-pay payouts) on anvil: an ERC-20 transfer the owner signs, tagged with the
// plan; the receipt's amount is what the USDC Transfer logs paid the recipient.

let anvil: AnvilInstance;
let fixtures: EvmFixtures;
let adapter: EvmChainAdapter;

beforeAll(async () => {
  ({ anvil, fixtures, adapter } = await startTestVenueBed());
});
afterAll(() => anvil?.stop());

const PAYEE = '0x00000000000000000000000000000000000000a1';

describe('ERC-20 transfer legs on anvil', () => {
  it('pays exactly the amount to the recipient; read back from the Transfer log', async () => {
    const owner = ownerWallet(anvil, 2);
    await fixtures.mintUsdc(owner.address, 3_000_000n);
    const planId = newPlanId();
    const build = await adapter.buildTransfer({
      planId,
      owner: owner.address,
      recipient: PAYEE,
      amountMicros: 1_250_001n,
    });
    expect(build).toMatchObject({
      status: 'prepared',
      legs: [{ action: 'transfer', settles: true, summary: expect.stringContaining('1.250001') }],
    });
    const txId = last(await owner.send(build));
    const query = { txId, planId, owner: owner.address, recipient: PAYEE };
    expect(await adapter.readTransferReceipt(query)).toEqual({
      status: 'confirmed',
      txId,
      planId,
      amountMicros: 1_250_001n,
      shares: null,
      block: expect.stringMatching(/^[1-9][0-9]*$/),
    });
    // Another recipient, owner or plan: not this leg's transaction.
    expect(
      await adapter.readTransferReceipt({ ...query, recipient: fixtures.deployer }),
    ).toMatchObject({ status: 'mismatch', reason: expect.stringContaining('no USDC') });
    expect(await adapter.readTransferReceipt({ ...query, owner: fixtures.deployer })).toMatchObject(
      { status: 'mismatch' },
    );
    expect(await adapter.readTransferReceipt({ ...query, planId: newPlanId() })).toMatchObject({
      status: 'mismatch',
    });
  });

  it('a transfer the owner cannot cover reverts: the leg fails; no USDC configured blocks it', async () => {
    const owner = ownerWallet(anvil, 3);
    const planId = newPlanId();
    const build = await adapter.buildTransfer({
      planId,
      owner: owner.address,
      recipient: PAYEE,
      amountMicros: 999_000_000_000n,
    });
    const txId = last(await owner.send(build));
    expect(
      await adapter.readTransferReceipt({ txId, planId, owner: owner.address, recipient: PAYEE }),
    ).toMatchObject({ status: 'failed' });

    const bare = createEvmAdapter({
      chain: 'base',
      rpcUrl: anvil.rpcUrl,
      timeoutMs: 2_000,
      usdcAddress: undefined,
      registryAddress: undefined,
    });
    expect(
      await bare.buildTransfer({
        planId,
        owner: owner.address,
        recipient: PAYEE,
        amountMicros: 1n,
      }),
    ).toMatchObject({ status: 'blocked', blockers: [{ code: 'asset_not_configured' }] });
  });
});
