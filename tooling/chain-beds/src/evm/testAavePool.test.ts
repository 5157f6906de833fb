import {
  createPublicClient,
  createWalletClient,
  http,
  isAddressEqual,
  parseAbi,
  parseEventLogs,
  zeroAddress,
} from 'viem';
import type { Address, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilChain } from './anvilChain';
import { AAVE_BED_POOL_REVISIONS, BED_CALL_GAS, deployEvmFixtures } from './deployEvmFixtures';
import type { AaveBedRevision, EvmFixtures } from './deployEvmFixtures';
import { startAnvil } from './startAnvil';
import type { AnvilInstance } from './startAnvil';

// The Aave v3 stand-in in both accounting modes: v3.0–v3.4 (POOL_REVISION 8, half-up rounding,
// events of amount ± interest) and v3.5+ (POOL_REVISION 9, TokenMath's floor/ceil and events of
// differences of floored balances), per aave-v3-origin's SupplyLogic, TokenMath and
// ScaledBalanceTokenBase.

const usdcAbi = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);
const aavePoolAbi = parseAbi([
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function withdraw(address asset, uint256 amount, address to) returns (uint256)',
  'function getReserveNormalizedIncome(address asset) view returns (uint256)',
  'function POOL_REVISION() view returns (uint256)',
]);
const aTokenAbi = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function scaledBalanceOf(address) view returns (uint256)',
  'function UNDERLYING_ASSET_ADDRESS() view returns (address)',
  'function POOL() view returns (address)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Mint(address indexed caller, address indexed onBehalfOf, uint256 value, uint256 balanceIncrease, uint256 index)',
  'event Burn(address indexed from, address indexed target, uint256 value, uint256 balanceIncrease, uint256 index)',
]);
const RAY = 10n ** 27n;
const CHAIN_ID = 8453;
const MAX = 2n ** 256n - 1n;

describe.each(['v3.5', 'v3.4'] as const)('TestAavePool in %s mode', (mode: AaveBedRevision) => {
  const v35 = mode === 'v3.5';
  let anvil: AnvilInstance;
  let fixtures: EvmFixtures;
  let reader: PublicClient;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: CHAIN_ID });
    fixtures = await deployEvmFixtures({
      rpcUrl: anvil.rpcUrl,
      chainId: CHAIN_ID,
      aaveRevision: mode,
    });
    reader = createPublicClient({ transport: http(anvil.rpcUrl) });
  });
  afterAll(() => anvil?.stop());

  const read = (
    address: Address,
    abi: typeof aavePoolAbi | typeof aTokenAbi | typeof usdcAbi,
    functionName: string,
    args: readonly unknown[],
  ) => reader.readContract({ address, abi, functionName, args } as never) as Promise<bigint>;

  /** A wallet of anvil account `index` with `usdc` minted and the pool approved for all of it. */
  async function holder(index: number, usdc: bigint) {
    const key = anvil.accounts[index]?.privateKey;
    if (!key) throw new Error(`no account ${index}`);
    const wallet = createWalletClient({
      account: privateKeyToAccount(key),
      chain: anvilChain(CHAIN_ID, anvil.rpcUrl),
      transport: http(anvil.rpcUrl),
    });
    const owner = wallet.account.address;
    const mined = (hash: `0x${string}`) =>
      reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    await fixtures.mintUsdc(owner, usdc);
    await mined(
      await wallet.writeContract({
        address: fixtures.usdc,
        abi: usdcAbi,
        functionName: 'approve',
        args: [fixtures.aavePool, MAX],
      }),
    );
    const pool = (functionName: 'supply' | 'withdraw', amount: bigint) =>
      wallet
        .writeContract({
          address: fixtures.aavePool,
          abi: aavePoolAbi,
          functionName,
          args:
            functionName === 'supply'
              ? [fixtures.usdc, amount, owner, 0]
              : [fixtures.usdc, amount, owner],
          // Not eth_estimateGas's figure: estimated in one block second, mined in the next, the
          // index update's SSTORE costs more and the call ran out of gas (CI, empty logs).
          gas: BED_CALL_GAS,
        } as never)
        .then(mined);
    /** The aToken's events (USDC's Transfer has the same signature: filtered by address). */
    const events = async (functionName: 'supply' | 'withdraw', amount: bigint) => {
      const { logs } = await pool(functionName, amount);
      const fromAToken = logs.filter((log) => isAddressEqual(log.address, fixtures.aToken));
      return parseEventLogs({ abi: aTokenAbi, logs: fromAToken }).map((log) => [
        log.eventName,
        log.args,
      ]);
    };
    /** The aToken's pair for one mint or burn of the owner's: a Transfer of the same value. */
    const emitted = (
      name: 'Mint' | 'Burn',
      value: bigint,
      balanceIncrease: bigint,
      index: bigint,
    ) =>
      name === 'Mint'
        ? [
            ['Transfer', { from: zeroAddress, to: owner, value }],
            ['Mint', { caller: owner, onBehalfOf: owner, value, balanceIncrease, index }],
          ]
        : [
            ['Transfer', { from: owner, to: zeroAddress, value }],
            ['Burn', { from: owner, target: owner, value, balanceIncrease, index }],
          ];
    return {
      owner,
      pool,
      events,
      emitted,
      scaled: () => read(fixtures.aToken, aTokenAbi, 'scaledBalanceOf', [owner]),
      balance: () => read(fixtures.aToken, aTokenAbi, 'balanceOf', [owner]),
      usdc: () => read(fixtures.usdc, usdcAbi, 'balanceOf', [owner]),
    };
  }
  const index = () =>
    read(fixtures.aavePool, aavePoolAbi, 'getReserveNormalizedIncome', [fixtures.usdc]);

  it('answers its POOL_REVISION and names its pool and reserve', async () => {
    expect(await read(fixtures.aavePool, aavePoolAbi, 'POOL_REVISION', [])).toBe(
      AAVE_BED_POOL_REVISIONS[mode],
    );
    expect(fixtures.aavePoolRevision).toBe(AAVE_BED_POOL_REVISIONS[mode]);
    expect(await read(fixtures.aToken, aTokenAbi, 'UNDERLYING_ASSET_ADDRESS', [])).toBe(
      fixtures.usdc,
    );
    expect(await read(fixtures.aToken, aTokenAbi, 'POOL', [])).toBe(fixtures.aavePool);
    expect(await index()).toBe(RAY);
  });

  it('mints and burns scaled balances at the liquidity index; exact divisions agree in both modes', async () => {
    const user = await holder(5, 100_000_000n);
    // First supply at index 1: scaled = amount, no interest yet.
    expect(await user.events('supply', 10_000_000n)).toEqual(
      user.emitted('Mint', 10_000_000n, 0n, RAY),
    );
    expect(await user.scaled()).toBe(10_000_000n);

    // 1 USDC of interest on 10 scaled: index 1.1, the balance rebases to 11, scaled stays.
    await fixtures.simulateAaveYield(1_000_000n);
    const index11 = (RAY * 11n) / 10n;
    expect(await index()).toBe(index11);
    expect(await user.balance()).toBe(11_000_000n);

    // Supplying 5.5 mints 5 scaled; Mint's value adds the interest accrued since the last action.
    expect(await user.events('supply', 5_500_000n)).toEqual(
      user.emitted('Mint', 6_500_000n, 1_000_000n, index11),
    );
    expect(await user.scaled()).toBe(15_000_000n);

    // Withdrawing 3.3 burns 3 scaled; nothing accrued since the supply.
    expect(await user.events('withdraw', 3_300_000n)).toEqual(
      user.emitted('Burn', 3_300_000n, 0n, index11),
    );
    expect(await user.scaled()).toBe(12_000_000n);

    // Index 1.2; withdrawing 0.6, less than the 1.2 accrued, is a Mint of the difference.
    await fixtures.simulateAaveYield(1_200_000n);
    const index12 = (RAY * 12n) / 10n;
    expect(await user.events('withdraw', 600_000n)).toEqual(
      user.emitted('Mint', 600_000n, 1_200_000n, index12),
    );
    expect(await user.scaled()).toBe(11_500_000n);

    // Everything out: 11.5 scaled × 1.2 = 13.8 USDC; 100 - 10 - 5.5 + 3.3 + 0.6 + 13.8 = 102.2.
    await user.pool('withdraw', MAX);
    expect(await user.scaled()).toBe(0n);
    expect(await user.usdc()).toBe(102_200_000n);
  });

  it('rounds as its revision: 5 USDC at index 1.2 mints floor (v3.5) or half up (v3.4)', async () => {
    // The test above left the index at 1.2 and nothing supplied. 5 / 1.2 = 4_166_666.67 scaled.
    const index12 = (RAY * 12n) / 10n;
    expect(await index()).toBe(index12);
    const user = await holder(6, 5_000_000n);
    // Liquidity of the reserve's other users: v3.4's half-up balance can pay out a unit more
    // than went in, which an empty bed reserve could not cover.
    await fixtures.mintUsdc(fixtures.aToken, 1_000n);
    // v3.5: floor → 4_166_666, Mint.value = floor(4_166_666 × 1.2) = 4_999_999.
    // v3.4: half up → 4_166_667, Mint.value = the amount, 5_000_000.
    const scaled = v35 ? 4_166_666n : 4_166_667n;
    const value = v35 ? 4_999_999n : 5_000_000n;
    expect(await user.events('supply', 5_000_000n)).toEqual(
      user.emitted('Mint', value, 0n, index12),
    );
    expect(await user.scaled()).toBe(scaled);
    // balanceOf: floor(4_166_666 × 1.2) = 4_999_999; rayMul(4_166_667, 1.2) = 5_000_000 (.4 down).
    expect(await user.balance()).toBe(value);
    // Withdrawing 1 USDC burns ceil(1 / 1.2) = 833_334 (v3.5) or rayDiv's 833_333 (v3.4).
    expect((await user.pool('withdraw', 1_000_000n)).status).toBe('success');
    expect(await user.scaled()).toBe(scaled - (v35 ? 833_334n : 833_333n));
    // Everything out pays what balanceOf says and burns the whole scaled balance.
    const owed = await user.balance();
    await user.pool('withdraw', MAX);
    expect(await user.scaled()).toBe(0n);
    expect(await user.usdc()).toBe(1_000_000n + owed);
  });

  it('refuses what Aave refuses: another reserve, more than the balance, yield on no supply', async () => {
    const user = await holder(7, 1n);
    await expect(
      reader.readContract({
        address: fixtures.aavePool,
        abi: aavePoolAbi,
        functionName: 'getReserveNormalizedIncome',
        args: [fixtures.vault],
      }),
    ).rejects.toThrow(/UnknownReserve|reverted/);
    await expect(
      reader.simulateContract({
        account: user.owner,
        address: fixtures.aavePool,
        abi: aavePoolAbi,
        functionName: 'withdraw',
        args: [fixtures.usdc, 1n, user.owner],
      }),
    ).rejects.toThrow(/NotEnoughAvailableUserBalance|reverted/);
    // The tests above withdrew everything: no scaled supply is left to pay interest to.
    await expect(fixtures.simulateAaveYield(1n)).rejects.toThrow(/NoSupply|revert/);
  });
});
