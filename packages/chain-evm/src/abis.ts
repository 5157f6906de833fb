// The few ABI fragments the adapter encodes and decodes. ERC-20 and ERC-4626 come from viem.
export { erc20Abi, erc4626Abi } from 'viem';

/**
 * Aave v3 Pool: the two calls a leg makes, the reserve's share price, its revision (the
 * implementation's public `POOL_REVISION` constant, read through the proxy), and its reserve data
 * (`ReserveDataLegacy` since v3.2: the ABI of v3.0's `ReserveData`), whose `configuration` is
 * the packed map `getConfiguration` returns and whose `accruedToTreasury` counts against the
 * supply cap.
 */
export const aaveV3PoolAbi = [
  {
    type: 'function',
    name: 'POOL_REVISION',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'getReserveNormalizedIncome',
    stateMutability: 'view',
    inputs: [{ name: 'asset', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'getReserveData',
    stateMutability: 'view',
    inputs: [{ name: 'asset', type: 'address' }],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          {
            name: 'configuration',
            type: 'tuple',
            components: [{ name: 'data', type: 'uint256' }],
          },
          { name: 'liquidityIndex', type: 'uint128' },
          { name: 'currentLiquidityRate', type: 'uint128' },
          { name: 'variableBorrowIndex', type: 'uint128' },
          { name: 'currentVariableBorrowRate', type: 'uint128' },
          { name: 'currentStableBorrowRate', type: 'uint128' },
          { name: 'lastUpdateTimestamp', type: 'uint40' },
          { name: 'id', type: 'uint16' },
          { name: 'aTokenAddress', type: 'address' },
          { name: 'stableDebtTokenAddress', type: 'address' },
          { name: 'variableDebtTokenAddress', type: 'address' },
          { name: 'interestRateStrategyAddress', type: 'address' },
          { name: 'accruedToTreasury', type: 'uint128' },
          { name: 'unbacked', type: 'uint128' },
          { name: 'isolationModeTotalDebt', type: 'uint128' },
        ],
      },
    ],
  },
  {
    type: 'function',
    name: 'supply',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'asset', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'onBehalfOf', type: 'address' },
      { name: 'referralCode', type: 'uint16' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'withdraw',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'asset', type: 'address' },
      { name: 'amount', type: 'uint256' },
      { name: 'to', type: 'address' },
    ],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

/**
 * Aave v3 aToken (IAToken, IScaledBalanceToken): the owner's and the total scaled balance (the
 * shares), the reserve and pool it belongs to, and the events `_mintScaled` / `_burnScaled` emit.
 */
export const aaveV3ATokenAbi = [
  {
    type: 'function',
    name: 'scaledBalanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'user', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'scaledTotalSupply',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'uint256' }],
  },
  {
    type: 'function',
    name: 'POOL',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'UNDERLYING_ASSET_ADDRESS',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'event',
    name: 'Mint',
    inputs: [
      { name: 'caller', type: 'address', indexed: true },
      { name: 'onBehalfOf', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
      { name: 'balanceIncrease', type: 'uint256', indexed: false },
      { name: 'index', type: 'uint256', indexed: false },
    ],
  },
  {
    type: 'event',
    name: 'Burn',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'target', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
      { name: 'balanceIncrease', type: 'uint256', indexed: false },
      { name: 'index', type: 'uint256', indexed: false },
    ],
  },
] as const;

/** Our registry on EVM chains (tooling/chain-beds/contracts/SvcRegistry.sol). */
export const svcRegistryAbi = [
  {
    type: 'function',
    name: 'feeConfig',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'yieldSkimBps', type: 'uint16' },
      { name: 'depositFeeBps', type: 'uint16' },
      { name: 'maxYieldSkimBps', type: 'uint16' },
    ],
  },
] as const;

/**
 * ERC-4626 events with the parameter names of EIP-4626 (viem's erc4626Abi calls Deposit's second
 * field `receiver`; the topics are the same).
 */
export const erc4626EventsAbi = [
  {
    type: 'event',
    name: 'Deposit',
    inputs: [
      { name: 'sender', type: 'address', indexed: true },
      { name: 'owner', type: 'address', indexed: true },
      { name: 'assets', type: 'uint256', indexed: false },
      { name: 'shares', type: 'uint256', indexed: false },
    ],
  },
  {
    type: 'event',
    name: 'Withdraw',
    inputs: [
      { name: 'sender', type: 'address', indexed: true },
      { name: 'receiver', type: 'address', indexed: true },
      { name: 'owner', type: 'address', indexed: true },
      { name: 'assets', type: 'uint256', indexed: false },
      { name: 'shares', type: 'uint256', indexed: false },
    ],
  },
] as const;
