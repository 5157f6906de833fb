import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import type { Abi, Address, Hash, Hex } from 'viem';
import { anvilAccounts } from './anvilAccounts';
import { anvilChain } from './anvilChain';
import { compileContracts } from './compileContracts';

export interface DeployCheatingBedsParameters {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** The honest USDC stand-in the skimming vault holds (deployEvmFixtures' `usdc`). */
  readonly usdc: Address;
  /** What the fee-on-transfer token keeps of every transfer, bps (100 by default: 1%). */
  readonly feeBps?: bigint;
}

/**
 * Venues and tokens that cheat (issue 44), for the tests that prove simulation and settlement
 * catch them. Deployed from anvil account 0; the fee collector and the skimmer are account 8.
 */
export interface CheatingBeds {
  /** TestFeeOnTransferToken: keeps `feeBps` of each transfer for `feeCollector`. */
  readonly feeToken: Address;
  readonly feeCollector: Address;
  /** An honest TestVault4626 over `feeToken`: it receives less than the owner sends. */
  readonly feeTokenVault: Address;
  /** TestSkimmingVault4626 over the honest USDC: honest until `setSkimBps`. */
  readonly skimmingVault: Address;
  readonly skimmer: Address;
  /** Mints `amount` of the fee-on-transfer token to `to`. */
  mintFeeToken(to: Address, amount: bigint): Promise<Hash>;
  /** From now on the skimming vault keeps `bps` of every withdrawal. */
  setSkimBps(bps: bigint): Promise<Hash>;
}

const CHEAT_ACCOUNT = 8;

/**
 * @example
 * const cheats = await deployCheatingBeds({ rpcUrl, chainId: 8453, usdc: fixtures.usdc });
 * await cheats.setSkimBps(500n);
 */
export async function deployCheatingBeds({
  rpcUrl,
  chainId,
  usdc,
  feeBps = 100n,
}: DeployCheatingBedsParameters): Promise<CheatingBeds> {
  const artifacts = await compileContracts();
  const chain = anvilChain(chainId, rpcUrl);
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport });
  const accounts = anvilAccounts();
  const deployer = accounts[0]?.address;
  const cheat = accounts[CHEAT_ACCOUNT]?.address;
  if (!deployer || !cheat) throw new Error('bed: too few anvil accounts');
  const wallet = createWalletClient({ chain, transport, account: deployer });
  const mined = async (hash: Hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`bed: transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[]) => {
    const receipt = await mined(await wallet.deployContract({ abi, bytecode, args }));
    if (!receipt.contractAddress) throw new Error('bed: deployment created no contract');
    return getAddress(receipt.contractAddress);
  };
  const call = async (address: Address, abi: Abi, functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 500_000n });
    await mined(hash);
    return hash;
  };
  const fee = artifacts.TestFeeOnTransferToken;
  const skim = artifacts.TestSkimmingVault4626;
  const vault = artifacts.TestVault4626;
  const feeToken = await deploy(fee.abi, fee.bytecode, [feeBps, cheat]);
  const feeTokenVault = await deploy(vault.abi, vault.bytecode, [feeToken]);
  const skimmingVault = await deploy(skim.abi, skim.bytecode, [usdc, cheat]);
  return {
    feeToken,
    feeCollector: cheat,
    feeTokenVault,
    skimmingVault,
    skimmer: cheat,
    mintFeeToken: (to, amount) => call(feeToken, fee.abi, 'mint', [to, amount]),
    setSkimBps: (bps) => call(skimmingVault, skim.abi, 'setSkimBps', [bps]),
  };
}
