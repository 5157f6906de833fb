import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { SwapLegRequest } from '@yieldrouter/schemas';
import { decodeFunctionData } from 'viem';
import type { Hex } from 'viem';
import { erc20Abi } from './abis';
import { createEvmAdapter } from './createEvmAdapter';
import { readPlanTag } from './planTag';

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const ALLOWANCE_HOLDER = '0x0000000000001fF3684f28c67538d4D072C22734';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PLAN = 'plan_00112233445566778899aabbccddeeff';

// No RPC: the allowance is read by the caller; building legs is offline.
const adapter = createEvmAdapter({
  chain: 'base',
  rpcUrl: undefined,
  timeoutMs: 1_000,
  usdcAddress: USDC,
  registryAddress: undefined,
});

const request = (overrides: Partial<SwapLegRequest> = {}): SwapLegRequest => ({
  planId: PLAN,
  owner: OWNER.toLowerCase(),
  inputToken: USDC,
  amountInMicros: 10_000_000n,
  allowance: 0n,
  spender: ALLOWANCE_HOLDER,
  call: { to: ALLOWANCE_HOLDER, data: '0x2213bc0b0000' },
  summaries: { approve: 'Approve …', swap: 'Swap …' },
  ...overrides,
});

describe('buildEvmSwap', () => {
  it('a short allowance: approve the allowance target for the amount in, then the quoted call', () => {
    const [approve, swap, extra] = adapter.buildSwap(request({ allowance: 9_999_999n }));
    expect(extra).toBeUndefined();
    expect([approve?.action, approve?.settles, swap?.action, swap?.settles]).toEqual([
      'approve',
      false,
      'swap',
      true,
    ]);
    const approval = approve?.payload.transaction as { to: string; data: Hex; from: string };
    expect(approval.to).toBe(USDC);
    expect(approval.from).toBe(OWNER);
    expect(decodeFunctionData({ abi: erc20Abi, data: approval.data }).args).toEqual([
      ALLOWANCE_HOLDER,
      10_000_000n,
    ]);
    const call = swap?.payload.transaction as { to: string; data: Hex; value: string };
    expect(call).toMatchObject({ to: ALLOWANCE_HOLDER, value: '0', chainId: 8453 });
    // The quote's calldata, with the plan tag after it.
    expect(call.data.startsWith('0x2213bc0b0000')).toBe(true);
    expect(readPlanTag(call.data)).toBe(PLAN);
    expect(readPlanTag(approval.data)).toBe(PLAN);
  });

  it('enough allowance: the swap leg alone', () => {
    const legs = adapter.buildSwap(request({ allowance: 10_000_000n }));
    expect(legs.map((leg) => leg.action)).toEqual(['swap']);
  });

  it.each([
    ['amountInMicros', { amountInMicros: 0n }],
    ['owner', { owner: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' }],
    ['planId', { planId: 'plan_x' }],
    ['spender', { spender: 'not-an-address' }],
    ['call.data', { call: { to: ALLOWANCE_HOLDER, data: '0xabc' } }],
  ])('refuses a bad %s', (field, overrides) => {
    expect(() => adapter.buildSwap(request(overrides))).toThrow(InvalidChainInputError);
    try {
      adapter.buildSwap(request(overrides));
    } catch (error) {
      expect((error as InvalidChainInputError).field).toBe(field);
    }
  });

  it('reads fail closed without an RPC', async () => {
    expect(
      await adapter.readAllowance({ token: USDC, owner: OWNER, spender: ALLOWANCE_HOLDER }),
    ).toMatchObject({ status: 'unavailable', reason: 'rpc_not_configured' });
  });
});
