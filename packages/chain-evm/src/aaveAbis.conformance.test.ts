import { IAToken_ABI } from '@aave-dao/aave-address-book/abis/IAToken';
import { IPool_ABI } from '@aave-dao/aave-address-book/abis/IPool';
import { compileContracts } from '@yieldrouter/chain-beds/evm';
import { toEventSelector, toFunctionSelector } from 'viem';
import type { Abi, AbiEvent, AbiFunction } from 'viem';
import { aaveV3ATokenAbi, aaveV3PoolAbi } from './abis';

// Our Aave fragments and the bed's stand-ins against Aave's published interfaces
// (@aave-dao/aave-address-book's IPool and IAToken ABIs): the same selectors and event topics,
// the same outputs. The implementations' own getters (Pool's POOL_REVISION constant, the
// aToken's POOL) are not in those interfaces.
const NOT_IN_INTERFACES = new Set(['POOL_REVISION', 'POOL']);

const functions = (abi: Abi) => abi.filter((item): item is AbiFunction => item.type === 'function');
const events = (abi: Abi) => abi.filter((item): item is AbiEvent => item.type === 'event');
const find = (abi: Abi, name: string) => {
  const found = functions(abi).filter((item) => item.name === name);
  if (found.length === 0) throw new Error(`no ${name}`);
  return found;
};
const outputs = (fn: AbiFunction) => JSON.stringify(fn.outputs.map((output) => output.type));

describe('Aave ABIs against @aave-dao/aave-address-book', () => {
  it('our Pool and aToken fragments: same selectors, outputs and event topics as Aave publishes', () => {
    for (const [ours, theirs] of [
      [aaveV3PoolAbi, IPool_ABI],
      [aaveV3ATokenAbi, IAToken_ABI],
    ] as const) {
      for (const fn of functions(ours as Abi)) {
        if (NOT_IN_INTERFACES.has(fn.name)) continue;
        const match = find(theirs as Abi, fn.name).find(
          (candidate) => toFunctionSelector(candidate) === toFunctionSelector(fn),
        );
        expect(match && outputs(match)).toBe(outputs(fn));
      }
      for (const event of events(ours as Abi)) {
        const topics = events(theirs as Abi).map((candidate) => toEventSelector(candidate));
        expect(topics).toContain(toEventSelector(event));
      }
    }
  });

  it("the bed's TestAavePool and TestAToken expose Aave's selectors for what our legs call and read", async () => {
    const { TestAavePool, TestAToken } = await compileContracts();
    const selectors = (abi: Abi) => functions(abi).map((fn) => toFunctionSelector(fn));
    for (const name of [
      'supply',
      'withdraw',
      'getReserveNormalizedIncome',
      'getReserveData',
      'getConfiguration',
    ]) {
      for (const fn of find(IPool_ABI as Abi, name)) {
        expect(selectors(TestAavePool.abi)).toContain(toFunctionSelector(fn));
      }
    }
    // The v3.5+ pool-facing burn (amount and scaled amount) and mint, and the readers.
    for (const name of [
      'mint',
      'burn',
      'scaledBalanceOf',
      'scaledTotalSupply',
      'balanceOf',
      'UNDERLYING_ASSET_ADDRESS',
      'getPreviousIndex',
    ]) {
      for (const fn of find(IAToken_ABI as Abi, name)) {
        expect(selectors(TestAToken.abi)).toContain(toFunctionSelector(fn));
      }
    }
    const topics = events(TestAToken.abi).map((event) => toEventSelector(event));
    for (const event of events(IAToken_ABI as Abi).filter((item) =>
      ['Mint', 'Burn', 'Transfer'].includes(item.name),
    )) {
      expect(topics).toContain(toEventSelector(event));
    }
  });
});
