import { createPublicClient, createWalletClient, getAddress, http, isAddress } from 'viem';
import type { Abi, Address, Hash, Hex, PublicClient } from 'viem';
import { anvilAccounts } from './anvilAccounts';
import { anvilChain } from './anvilChain';
import { compileContracts } from './compileContracts';

/**
 * The Aave accounting the bed's pool follows, by the `POOL_REVISION()` it answers: `v3.5`
 * (revision 9: TokenMath's floor/ceil rounding and its events, what Aave runs today) or `v3.4`
 * (revision 8: half-up rounding, as v3.0–v3.4).
 */
export const AAVE_BED_POOL_REVISIONS = { 'v3.4': 8n, 'v3.5': 9n } as const;
export type AaveBedRevision = keyof typeof AAVE_BED_POOL_REVISIONS;

export interface DeployEvmFixturesParameters {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** How the Aave stand-in accounts; `v3.5` (today's protocol) by default. */
  readonly aaveRevision?: AaveBedRevision;
}

/** SPEC fee configuration the bed registry is deployed with. */
export const BED_FEE_CONFIG = {
  yieldSkimBps: 500,
  depositFeeBps: 0,
  maxYieldSkimBps: 1000,
} as const;

/** Native the WETH stand-in holds so minted tokens unwrap (10^9 ETH). */
const WETH_NATIVE_BACKING = 10n ** 27n;

/** What the bed's USDC/WETH pair starts with: 3,000,000 USDC and 1,000 WETH (3,000 USDC/WETH). */
export const BED_PAIR_LIQUIDITY = {
  usdc: 3_000_000_000_000n,
  weth: 1_000_000_000_000_000_000_000n,
} as const;

/** Contracts deployed on a bed node, and bed-only helpers to move money around. */
export interface EvmFixtures {
  /** TestUSDC (6 decimals, anyone mints). */
  readonly usdc: Address;
  /** TestVault4626 over `usdc`. */
  readonly vault: Address;
  /** SvcRegistry with `BED_FEE_CONFIG`. */
  readonly registry: Address;
  /**
   * Aave v3 stand-ins: `supply` / `withdraw` and `getReserveNormalizedIncome` on the pool, the
   * scaled, rebasing receipt token at `aToken` (`scaledBalanceOf`, `UNDERLYING_ASSET_ADDRESS`).
   */
  readonly aavePool: Address;
  readonly aToken: Address;
  /** The Aave stand-in's `POOL_REVISION()` (see `AAVE_BED_POOL_REVISIONS`). */
  readonly aavePoolRevision: bigint;
  /** The swap bed: a WETH stand-in (TestToken, 18 decimals, anyone mints)… */
  readonly weth: Address;
  /** …and a constant-product USDC/WETH pair (TestPair) seeded with `BED_PAIR_LIQUIDITY`. */
  readonly pair: Address;
  /** A second TestVault4626 over `usdc`: the other end of a cage REBALANCE. */
  readonly altVault: Address;
  /**
   * Our cage (packages/chain-evm/contracts/YieldCage.sol) over `usdc`: the deployer is its
   * guardian (pause), `cageTreasury` receives its skim.
   */
  readonly cage: Address;
  /**
   * A Silo v2 market stand-in: TestSiloConfig naming two TestVault4626 silos, `silo0` over the
   * WETH stand-in and `silo1` over USDC (as Silo_ARB_USDC_V2: token0 ARB, token1 USDC).
   */
  readonly siloConfig: Address;
  readonly silo0: Address;
  readonly silo1: Address;
  readonly cageTreasury: Address;
  /** The account that deployed everything (anvil account 0). */
  readonly deployer: Address;
  /** Pauses or unpauses the cage (the deployer is its guardian). */
  setCagePaused(paused: boolean): Promise<Hash>;
  /** Mints `amount` (base units) of the WETH stand-in to `to`. */
  mintWeth(to: Address, amount: bigint): Promise<Hash>;
  /** Mints `amount` micros of TestUSDC to `to`; resolves once mined. */
  mintUsdc(to: Address, amount: bigint): Promise<Hash>;
  /** Mints `amount` micros into the Silo market's USDC silo (`silo1`): interest accrued. */
  simulateSiloYield(amount: bigint): Promise<Hash>;
  /** Mints `amount` micros into the vault, so every share is worth more. */
  simulateYield(amount: bigint): Promise<Hash>;
  /** Caps what the vault holds (its `maxDeposit` becomes the room left); 2^256 − 1 uncaps. */
  setVaultDepositLimit(limit: bigint): Promise<Hash>;
  /**
   * Pays `amount` micros of interest to the Aave stand-in's suppliers: raises the liquidity
   * index, so every scaled aToken is worth more. Reverts while nothing is supplied.
   */
  simulateAaveYield(amount: bigint): Promise<Hash>;
  /**
   * Sets the Aave stand-in reserve's supply cap in whole tokens (0 removes it): its
   * `getConfiguration` packs it as Aave v3 does, and `supply` past it reverts `SupplyCapExceeded`.
   */
  setAaveSupplyCap(wholeTokens: bigint): Promise<Hash>;
  /**
   * Adds `amount` micros to what the Aave stand-in owes its treasury (`accruedToTreasury`, scaled
   * at the current index), which counts against the supply cap as on Aave.
   */
  simulateAaveTreasuryAccrual(amount: bigint): Promise<Hash>;
  /**
   * Supplies `amount` micros to the Aave stand-in from the deployer (minted, approved, then
   * `supply` on its own behalf); resolves once mined, throws if the supply reverts.
   */
  supplyToAave(amount: bigint): Promise<Hash>;
}

/** Anvil's last account receives the cage's skim (as it receives the beds' swap fee). */
const CAGE_TREASURY_ACCOUNT = 9;

/** Gas limit of a fixture call (anvil's block limit is 30M; the largest call uses ~0.3M). */
export const BED_CALL_GAS = 2_000_000n;

/**
 * Deploys TestUSDC, TestVault4626, SvcRegistry, the Aave stand-ins and the swap bed (WETH
 * stand-in and a seeded USDC/WETH TestPair), then a second vault and our YieldCage, from anvil
 * account 0
 * (an unlocked node account: the node signs, so nothing is signed locally).
 *
 * @example
 * const anvil = await startAnvil({ chainId: 8453 });
 * const fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId: 8453 });
 * await fixtures.mintUsdc(owner, 25_000_000n);
 */
export async function deployEvmFixtures({
  rpcUrl,
  chainId,
  aaveRevision = 'v3.5',
}: DeployEvmFixturesParameters): Promise<EvmFixtures> {
  const aavePoolRevision = AAVE_BED_POOL_REVISIONS[aaveRevision];
  const artifacts = await compileContracts();
  const chain = anvilChain(chainId, rpcUrl);
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport });
  const accounts = anvilAccounts();
  const first = accounts[0];
  const cageTreasury = accounts[CAGE_TREASURY_ACCOUNT]?.address;
  if (!first || !cageTreasury) throw new Error('bed: too few anvil accounts');
  const deployer = first.address;
  const wallet = createWalletClient({ chain, transport, account: deployer });

  const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[]): Promise<Address> => {
    const hash = await wallet.deployContract({ abi, bytecode, args });
    const receipt = await mined(publicClient, hash);
    if (!receipt.contractAddress) throw new Error(`bed: deployment ${hash} created no contract`);
    return getAddress(receipt.contractAddress);
  };
  const call = async (
    address: Address,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
  ): Promise<Hash> => {
    // A fixed limit, not eth_estimateGas's exact figure: an estimate made in the block second of a
    // stored timestamp prices that SSTORE as unchanged, and the call then runs out of gas when
    // it is mined a second later (the Aave stand-in's simulate* calls did, now and then).
    const hash = await wallet.writeContract({
      address,
      abi,
      functionName,
      args,
      gas: BED_CALL_GAS,
    });
    await mined(publicClient, hash);
    return hash;
  };

  const usdc = await deploy(artifacts.TestUSDC.abi, artifacts.TestUSDC.bytecode, []);
  const vault = await deploy(artifacts.TestVault4626.abi, artifacts.TestVault4626.bytecode, [usdc]);
  const registry = await deploy(artifacts.SvcRegistry.abi, artifacts.SvcRegistry.bytecode, [
    BED_FEE_CONFIG.yieldSkimBps,
    BED_FEE_CONFIG.depositFeeBps,
    BED_FEE_CONFIG.maxYieldSkimBps,
  ]);
  const aavePool = await deploy(artifacts.TestAavePool.abi, artifacts.TestAavePool.bytecode, [
    usdc,
    aavePoolRevision,
  ]);
  const aTokenAnswer = await publicClient.readContract({
    address: aavePool,
    abi: artifacts.TestAavePool.abi,
    functionName: 'aToken',
  });
  if (typeof aTokenAnswer !== 'string' || !isAddress(aTokenAnswer)) {
    throw new Error('bed: TestAavePool.aToken() is not an address');
  }
  const aToken = getAddress(aTokenAnswer);
  const weth = await deploy(artifacts.TestToken.abi, artifacts.TestToken.bytecode, [
    'Wrapped Ether (bed)',
    'WETH',
    18,
  ]);
  // Minted WETH unwraps too: the stand-in holds native for every token anyone mints here.
  await publicClient.request({
    method: 'anvil_setBalance' as never,
    params: [weth, `0x${WETH_NATIVE_BACKING.toString(16)}`] as never,
  });
  const pair = await deploy(artifacts.TestPair.abi, artifacts.TestPair.bytecode, [usdc, weth]);
  await call(usdc, artifacts.TestUSDC.abi, 'mint', [deployer, BED_PAIR_LIQUIDITY.usdc]);
  await call(weth, artifacts.TestToken.abi, 'mint', [deployer, BED_PAIR_LIQUIDITY.weth]);
  await call(usdc, artifacts.TestUSDC.abi, 'approve', [pair, BED_PAIR_LIQUIDITY.usdc]);
  await call(weth, artifacts.TestToken.abi, 'approve', [pair, BED_PAIR_LIQUIDITY.weth]);
  await call(pair, artifacts.TestPair.abi, 'addLiquidity', [
    BED_PAIR_LIQUIDITY.usdc,
    BED_PAIR_LIQUIDITY.weth,
  ]);

  // Deployed last, so every address above stays what it was before the cage existed.
  const altVault = await deploy(artifacts.TestVault4626.abi, artifacts.TestVault4626.bytecode, [
    usdc,
  ]);
  const cage = await deploy(artifacts.YieldCage.abi, artifacts.YieldCage.bytecode, [
    usdc,
    cageTreasury,
    deployer,
  ]);

  // The Silo market after the cage, for the same reason.
  const silo0 = await deploy(artifacts.TestVault4626.abi, artifacts.TestVault4626.bytecode, [weth]);
  const silo1 = await deploy(artifacts.TestVault4626.abi, artifacts.TestVault4626.bytecode, [usdc]);
  const siloConfig = await deploy(artifacts.TestSiloConfig.abi, artifacts.TestSiloConfig.bytecode, [
    silo0,
    silo1,
  ]);

  return {
    usdc,
    vault,
    altVault,
    cage,
    siloConfig,
    silo0,
    silo1,
    cageTreasury,
    registry,
    aavePool,
    aToken,
    aavePoolRevision,
    weth,
    pair,
    deployer,
    setCagePaused: (paused) => call(cage, artifacts.YieldCage.abi, 'setPaused', [paused]),
    mintWeth: (to, amount) => call(weth, artifacts.TestToken.abi, 'mint', [to, amount]),
    mintUsdc: (to, amount) => call(usdc, artifacts.TestUSDC.abi, 'mint', [to, amount]),
    simulateSiloYield: (amount) =>
      call(silo1, artifacts.TestVault4626.abi, 'simulateYield', [amount]),
    simulateYield: (amount) => call(vault, artifacts.TestVault4626.abi, 'simulateYield', [amount]),
    setVaultDepositLimit: (limit) =>
      call(vault, artifacts.TestVault4626.abi, 'setDepositLimit', [limit]),
    simulateAaveYield: (amount) =>
      call(aavePool, artifacts.TestAavePool.abi, 'simulateYield', [amount]),
    setAaveSupplyCap: (wholeTokens) =>
      call(aavePool, artifacts.TestAavePool.abi, 'setSupplyCap', [wholeTokens]),
    simulateAaveTreasuryAccrual: (amount) =>
      call(aavePool, artifacts.TestAavePool.abi, 'simulateTreasuryAccrual', [amount]),
    supplyToAave: async (amount) => {
      await call(usdc, artifacts.TestUSDC.abi, 'mint', [deployer, amount]);
      await call(usdc, artifacts.TestUSDC.abi, 'approve', [aavePool, amount]);
      return call(aavePool, artifacts.TestAavePool.abi, 'supply', [usdc, amount, deployer, 0]);
    },
  };
}

/** The receipt of a mined transaction (anvil mines on send); throws if it reverted. */
async function mined(client: PublicClient, hash: Hash) {
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`bed: transaction ${hash} reverted`);
  return receipt;
}
