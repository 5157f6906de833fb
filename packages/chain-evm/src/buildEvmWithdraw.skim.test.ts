import { InvalidChainInputError } from '@yieldrouter/schemas';
import type { LegRequest, UnsignedLeg, VenueOnChain } from '@yieldrouter/schemas';
import { decodeFunctionData, erc20Abi as publishedErc20Abi, erc4626Abi } from 'viem';
import type { Hex } from 'viem';
import { aaveV3PoolAbi } from './abis';
import { createEvmAdapter } from './createEvmAdapter';
import { readPlanTag } from './planTag';

// Issue #46: where the owner holds the receipts (plain EVM venues), the withdraw plan carries the
// skim to the chain's treasury as its next leg, an ERC-20 transfer checked against viem's
// published ABIs.
const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const VAULT = '0x1111111111111111111111111111111111111111';
const POOL = '0x2222222222222222222222222222222222222222';
const TREASURY = '0x5555555555555555555555555555555555555555';
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
  ids: { pool: POOL, aToken: '0x3333333333333333333333333333333333333333' },
};
const adapter = (usdcAddress: string = USDC) =>
  createEvmAdapter({
    chain: 'base',
    rpcUrl: undefined,
    timeoutMs: 1_000,
    usdcAddress,
    registryAddress: undefined,
  });

const request = (venue: VenueOnChain, skim?: LegRequest['skim']): LegRequest => ({
  planId: PLAN,
  owner: OWNER,
  amountMicros: 5_022_831n,
  target: { kind: 'venue', venue },
  ...(skim ? { skim } : {}),
});

function callOf(leg: UnsignedLeg | undefined): { to: string; call: Hex } {
  if (leg?.payload.encoding !== 'evm-transaction-request') throw new Error('not an EVM leg');
  const { data, to, from } = leg.payload.transaction;
  expect(from).toBe(OWNER);
  expect(readPlanTag(data)).toBe(PLAN);
  return { to, call: data.slice(0, -40) as Hex };
}

describe('buildWithdraw with a skim leg', () => {
  it.each([
    ['erc4626', vault],
    ['aave-v3', aave],
  ])(
    '%s: withdraw the gross, then transfer(treasury, skim) of USDC, both tagged',
    async (_, venue) => {
      const build = await adapter().buildWithdraw(
        request(venue, { recipient: TREASURY, amountMicros: 22_831n }),
      );
      if (build.status !== 'prepared') throw new Error(JSON.stringify(build));
      expect(build.legs).toHaveLength(2);
      const [withdraw, skim] = build.legs;
      expect(withdraw).toMatchObject({
        action: 'withdraw',
        settles: true,
        amountMicros: 5_022_831n,
      });
      const out = callOf(withdraw);
      const decoded =
        venue.standard === 'erc4626'
          ? decodeFunctionData({ abi: erc4626Abi, data: out.call }).args
          : decodeFunctionData({ abi: aaveV3PoolAbi, data: out.call }).args;
      expect(decoded).toContain(5_022_831n);
      expect(skim).toMatchObject({ action: 'transfer', settles: true, amountMicros: 22_831n });
      const sent = callOf(skim);
      expect(sent.to).toBe(USDC);
      expect(decodeFunctionData({ abi: publishedErc20Abi, data: sent.call })).toEqual({
        functionName: 'transfer',
        args: [TREASURY, 22_831n],
      });
      expect(skim?.summary).toBe(`Send 0.022831 USDC to ${TREASURY} on Base`);
    },
  );

  it('a skim of 0 (no yield to share) adds no leg', async () => {
    const build = await adapter().buildWithdraw(
      request(vault, { recipient: TREASURY, amountMicros: 0n }),
    );
    expect(build.status === 'prepared' && build.legs.length).toBe(1);
  });

  it('refuses a skim above the withdrawal, naming the field', async () => {
    await expect(
      adapter().buildWithdraw(request(vault, { recipient: TREASURY, amountMicros: 5_022_832n })),
    ).rejects.toMatchObject({ field: 'skim.amountMicros' });
    await expect(
      adapter().buildWithdraw(request(vault, { recipient: 'nope', amountMicros: 1n })),
    ).rejects.toBeInstanceOf(InvalidChainInputError);
  });
});
