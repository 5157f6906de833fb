import { createPublicClient, createWalletClient, http, parseAbi, parseEventLogs } from 'viem';
import type { Address, PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilChain } from './anvilChain';
import { BED_CONTRACTS, compileContracts } from './compileContracts';
import { BED_FEE_CONFIG, deployEvmFixtures } from './deployEvmFixtures';
import type { EvmFixtures } from './deployEvmFixtures';
import { startAnvil } from './startAnvil';
import type { AnvilInstance } from './startAnvil';

const vaultAbi = parseAbi([
  'function deposit(uint256 assets, address receiver) returns (uint256)',
  'function mint(uint256 shares, address receiver) returns (uint256)',
  'function withdraw(uint256 assets, address receiver, address owner) returns (uint256)',
  'function redeem(uint256 shares, address receiver, address owner) returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function convertToShares(uint256 assets) view returns (uint256)',
  'function previewMint(uint256 shares) view returns (uint256)',
  'function previewWithdraw(uint256 assets) view returns (uint256)',
  'function asset() view returns (address)',
  'function decimals() view returns (uint8)',
  'event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)',
  'event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)',
]);
const usdcAbi = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);
const registryAbi = parseAbi([
  'function feeConfig() view returns (uint16, uint16, uint16)',
  'function setFeeConfig(uint16 yieldSkimBps, uint16 depositFeeBps)',
]);

const CHAIN_ID = 8453;
let anvil: AnvilInstance;
let fixtures: EvmFixtures;
let reader: PublicClient;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN_ID });
  fixtures = await deployEvmFixtures({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID });
  reader = createPublicClient({ transport: http(anvil.rpcUrl) });
});
afterAll(() => anvil?.stop());

function walletOf(index: number) {
  const key = anvil.accounts[index]?.privateKey;
  if (!key) throw new Error(`no account ${index}`);
  return createWalletClient({
    account: privateKeyToAccount(key),
    chain: anvilChain(CHAIN_ID, anvil.rpcUrl),
    transport: http(anvil.rpcUrl),
  });
}

async function mined(hash: `0x${string}`) {
  return reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

function read<const T extends readonly unknown[]>(
  address: Address,
  abi: typeof vaultAbi | typeof usdcAbi,
  functionName: string,
  args: T,
) {
  return reader.readContract({ address, abi, functionName, args } as never) as Promise<bigint>;
}

describe('compileContracts', () => {
  it('compiles every bed contract once (memory cache)', async () => {
    const first = await compileContracts();
    expect(Object.keys(first).sort()).toEqual([...BED_CONTRACTS].sort());
    for (const name of BED_CONTRACTS) expect(first[name].bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
    expect(await compileContracts()).toBe(first);
  });
});

describe('TestUSDC and TestVault4626', () => {
  it('USDC has 6 decimals and mints exact amounts; the vault is over it', async () => {
    const [, owner] = anvil.accounts;
    if (!owner) throw new Error('no account');
    await fixtures.mintUsdc(owner.address, 1_234_567n);
    expect(await read(fixtures.usdc, usdcAbi, 'balanceOf', [owner.address])).toBe(1_234_567n);
    expect(await read(fixtures.usdc, usdcAbi, 'decimals', [])).toBe(6);
    expect(await read(fixtures.vault, vaultAbi, 'asset', [])).toBe(fixtures.usdc);
    expect(fixtures.deployer).toBe(anvil.accounts[0]?.address);
  });

  it('deposit, yield, withdraw and redeem follow EIP-4626 (events, rounding, share price)', async () => {
    const wallet = walletOf(2);
    const owner = wallet.account.address;
    await fixtures.mintUsdc(owner, 100_000_000n);
    await mined(
      await wallet.writeContract({
        address: fixtures.usdc,
        abi: usdcAbi,
        functionName: 'approve',
        args: [fixtures.vault, 2n ** 256n - 1n],
      }),
    );

    // First deposit into an empty vault: one share per asset unit.
    const deposit = await mined(
      await wallet.writeContract({
        address: fixtures.vault,
        abi: vaultAbi,
        functionName: 'deposit',
        args: [40_000_000n, owner],
      }),
    );
    const [depositEvent] = parseEventLogs({
      abi: vaultAbi,
      logs: deposit.logs,
      eventName: 'Deposit',
    });
    expect(depositEvent?.args).toEqual({
      sender: owner,
      owner,
      assets: 40_000_000n,
      shares: 40_000_000n,
    });
    const shares = await read(fixtures.vault, vaultAbi, 'balanceOf', [owner]);
    expect(shares).toBe(40_000_000n);

    // Yield: the vault holds more assets for the same shares.
    await fixtures.simulateYield(10_000_000n);
    expect(await read(fixtures.vault, vaultAbi, 'totalAssets', [])).toBe(50_000_000n);
    const worth = await read(fixtures.vault, vaultAbi, 'convertToAssets', [shares]);
    // (40e6 * (50e6 + 1)) / (40e6 + 1), rounded down: just under 50 USDC.
    expect(worth).toBe((40_000_000n * 50_000_001n) / 40_000_001n);

    // Withdraw rounds shares up, so the vault never pays out more than it burns.
    const assetsOut = 12_000_000n;
    const sharesIn = await read(fixtures.vault, vaultAbi, 'previewWithdraw', [assetsOut]);
    expect(sharesIn).toBe((assetsOut * 40_000_001n + 50_000_000n) / 50_000_001n);
    const withdraw = await mined(
      await wallet.writeContract({
        address: fixtures.vault,
        abi: vaultAbi,
        functionName: 'withdraw',
        args: [assetsOut, owner, owner],
      }),
    );
    const [withdrawEvent] = parseEventLogs({
      abi: vaultAbi,
      logs: withdraw.logs,
      eventName: 'Withdraw',
    });
    expect(withdrawEvent?.args).toEqual({
      sender: owner,
      receiver: owner,
      owner,
      assets: assetsOut,
      shares: sharesIn,
    });
    expect(await read(fixtures.usdc, usdcAbi, 'balanceOf', [owner])).toBe(72_000_000n);

    // Redeem the rest: everything the shares are worth comes back; dust stays in the vault.
    const left = await read(fixtures.vault, vaultAbi, 'balanceOf', [owner]);
    const value = await read(fixtures.vault, vaultAbi, 'convertToAssets', [left]);
    await mined(
      await wallet.writeContract({
        address: fixtures.vault,
        abi: vaultAbi,
        functionName: 'redeem',
        args: [left, owner, owner],
      }),
    );
    expect(await read(fixtures.usdc, usdcAbi, 'balanceOf', [owner])).toBe(72_000_000n + value);
    expect(await read(fixtures.vault, vaultAbi, 'balanceOf', [owner])).toBe(0n);
  });

  it('withdrawing more than the position reverts', async () => {
    const wallet = walletOf(3);
    await expect(
      reader.simulateContract({
        account: wallet.account,
        address: fixtures.vault,
        abi: vaultAbi,
        functionName: 'withdraw',
        args: [1n, wallet.account.address, wallet.account.address],
      }),
    ).rejects.toThrow(/ExceedsMax|reverted/);
  });
});

describe('SvcRegistry', () => {
  it('is deployed with the SPEC fee configuration', async () => {
    expect(
      await reader.readContract({
        address: fixtures.registry,
        abi: registryAbi,
        functionName: 'feeConfig',
      }),
    ).toEqual([
      BED_FEE_CONFIG.yieldSkimBps,
      BED_FEE_CONFIG.depositFeeBps,
      BED_FEE_CONFIG.maxYieldSkimBps,
    ]);
  });

  it('only the owner sets fees, and never a skim above the maximum', async () => {
    const stranger = walletOf(4);
    await expect(
      reader.simulateContract({
        account: stranger.account,
        address: fixtures.registry,
        abi: registryAbi,
        functionName: 'setFeeConfig',
        args: [100, 0],
      }),
    ).rejects.toThrow(/NotOwner|reverted/);
    const owner = walletOf(0);
    await expect(
      reader.simulateContract({
        account: owner.account,
        address: fixtures.registry,
        abi: registryAbi,
        functionName: 'setFeeConfig',
        args: [1001, 0],
      }),
    ).rejects.toThrow(/SkimAboveMax|reverted/);
    await mined(
      await owner.writeContract({
        address: fixtures.registry,
        abi: registryAbi,
        functionName: 'setFeeConfig',
        args: [1000, 25],
      }),
    );
    expect(
      await reader.readContract({
        address: fixtures.registry,
        abi: registryAbi,
        functionName: 'feeConfig',
      }),
    ).toEqual([1000, 25, 1000]);
  });
});

describe('TestSiloConfig (a Silo v2 market: ISiloConfig views over two silos)', () => {
  const siloConfigAbi = parseAbi([
    'function getSilos() view returns (address, address)',
    'function getAssetForSilo(address silo) view returns (address)',
  ]);
  it('names silo0 (WETH stand-in) and silo1 (USDC), and refuses another address', async () => {
    const config = { address: fixtures.siloConfig, abi: siloConfigAbi } as const;
    expect(await reader.readContract({ ...config, functionName: 'getSilos' })).toEqual([
      fixtures.silo0,
      fixtures.silo1,
    ]);
    const assetOf = (silo: Address) =>
      reader.readContract({ ...config, functionName: 'getAssetForSilo', args: [silo] });
    expect(await assetOf(fixtures.silo1)).toBe(fixtures.usdc);
    expect(await assetOf(fixtures.silo0)).toBe(fixtures.weth);
    expect(await read(fixtures.silo1, vaultAbi, 'asset', [])).toBe(fixtures.usdc);
    await expect(assetOf(fixtures.vault)).rejects.toThrow(/WrongSilo|revert/);
  });
});
