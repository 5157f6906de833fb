import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  http,
  maxUint256,
  parseAbi,
} from 'viem';
import type { PublicClient } from 'viem';
import { anvilChain } from './anvilChain';
import { deployEvmFixtures } from './deployEvmFixtures';
import type { EvmFixtures } from './deployEvmFixtures';
import { startAnvil } from './startAnvil';
import type { AnvilInstance } from './startAnvil';

// The Aave stand-in's reserve supply cap: packed in getConfiguration with Aave v3's bit layout,
// counted against supply with the treasury's accrued share, and enforced by `supply`.

const poolAbi = parseAbi([
  'struct ReserveConfigurationMap { uint256 data; }',
  'function getConfiguration(address asset) view returns (ReserveConfigurationMap)',
  'function getReserveData(address asset) view returns ((ReserveConfigurationMap configuration, uint128 liquidityIndex, uint128 currentLiquidityRate, uint128 variableBorrowIndex, uint128 currentVariableBorrowRate, uint128 currentStableBorrowRate, uint40 lastUpdateTimestamp, uint16 id, address aTokenAddress, address stableDebtTokenAddress, address variableDebtTokenAddress, address interestRateStrategyAddress, uint128 accruedToTreasury, uint128 unbacked, uint128 isolationModeTotalDebt))',
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function setSupplyCap(uint256 wholeTokens)',
  'error SupplyCapExceeded()',
  'error InvalidSupplyCap()',
]);
const RAY = 10n ** 27n;

let anvil: AnvilInstance;
let fixtures: EvmFixtures;
let reader: PublicClient;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 8453 });
  fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId: 8453 });
  reader = createPublicClient({ transport: http(anvil.rpcUrl) });
  await fixtures.mintUsdc(fixtures.deployer, 10_000_000_000n);
});
afterAll(() => anvil?.stop());

const configuration = async () =>
  (
    await reader.readContract({
      address: fixtures.aavePool,
      abi: poolAbi,
      functionName: 'getConfiguration',
      args: [fixtures.usdc],
    })
  ).data;

/** The deployer approves the pool for all it holds: only the cap can make a simulated supply revert. */
async function approveMax() {
  const wallet = createWalletClient({
    account: fixtures.deployer,
    chain: anvilChain(8453, anvil.rpcUrl),
    transport: http(anvil.rpcUrl),
  });
  const hash = await wallet.writeContract({
    address: fixtures.usdc,
    abi: poolAbi,
    functionName: 'approve',
    args: [fixtures.aavePool, maxUint256],
  });
  await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/** The custom error `simulation` reverts with, or null when it would not revert. */
async function revertOf(simulation: Promise<unknown>): Promise<string | null> {
  try {
    await simulation;
    return null;
  } catch (error) {
    const reverted =
      error instanceof BaseError
        ? error.walk((cause) => cause instanceof ContractFunctionRevertedError)
        : null;
    if (reverted instanceof ContractFunctionRevertedError) {
      return reverted.data?.errorName ?? reverted.signature ?? 'an undecoded revert';
    }
    throw error;
  }
}
const supplyRevert = (amount: bigint) =>
  revertOf(
    reader.simulateContract({
      account: fixtures.deployer,
      address: fixtures.aavePool,
      abi: poolAbi,
      functionName: 'supply',
      args: [fixtures.usdc, amount, fixtures.deployer, 0],
    }),
  );
const setSupplyCapRevert = (wholeTokens: bigint) =>
  revertOf(
    reader.simulateContract({
      account: fixtures.deployer,
      address: fixtures.aavePool,
      abi: poolAbi,
      functionName: 'setSupplyCap',
      args: [wholeTokens],
    }),
  );

it('packs decimals, the active bit and the supply cap at Aave v3 bit positions', async () => {
  const bits = (data: bigint, from: bigint, width: bigint) => (data >> from) & ((1n << width) - 1n);
  const uncapped = await configuration();
  expect(bits(uncapped, 48n, 8n)).toBe(6n);
  expect(bits(uncapped, 56n, 1n)).toBe(1n); // active
  expect(bits(uncapped, 57n, 1n)).toBe(0n); // not frozen
  expect(bits(uncapped, 60n, 1n)).toBe(0n); // not paused
  expect(bits(uncapped, 116n, 36n)).toBe(0n); // no cap
  expect(uncapped).toBe((6n << 48n) | (1n << 56n));

  await fixtures.setAaveSupplyCap(2n ** 36n - 1n);
  expect(bits(await configuration(), 116n, 36n)).toBe(2n ** 36n - 1n);
  expect(await setSupplyCapRevert(2n ** 36n)).toBe('InvalidSupplyCap');
  await fixtures.setAaveSupplyCap(0n);
});

it('supply past supplyCap × 10^decimals, counting the treasury, reverts SupplyCapExceeded', async () => {
  await fixtures.setAaveSupplyCap(100n); // 100 USDC
  await fixtures.supplyToAave(60_000_000n);
  await fixtures.simulateAaveTreasuryAccrual(5_000_000n);
  const reserve = await reader.readContract({
    address: fixtures.aavePool,
    abi: poolAbi,
    functionName: 'getReserveData',
    args: [fixtures.usdc],
  });
  expect(reserve).toMatchObject({
    liquidityIndex: RAY,
    variableBorrowIndex: RAY,
    aTokenAddress: fixtures.aToken,
    accruedToTreasury: 5_000_000n,
    configuration: { data: (6n << 48n) | (1n << 56n) | (100n << 116n) },
  });
  // 60 supplied + 5 owed to the treasury: 35 USDC of room.
  await approveMax(); // supplyToAave approves exact amounts
  expect(await supplyRevert(35_000_000n)).toBeNull();
  expect(await supplyRevert(35_000_001n)).toBe('SupplyCapExceeded');
  await expect(fixtures.supplyToAave(35_000_001n)).rejects.toThrow(/reverted/);
  await fixtures.supplyToAave(35_000_000n);
  expect(await supplyRevert(1n)).toBe('SupplyCapExceeded');

  await approveMax();
  await fixtures.setAaveSupplyCap(0n);
  expect(await supplyRevert(1_000_000_000n)).toBeNull();
});
