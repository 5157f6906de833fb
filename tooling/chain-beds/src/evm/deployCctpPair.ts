import { createPublicClient, createWalletClient, getAddress, http, keccak256, pad } from 'viem';
import { sign } from 'viem/accounts';
import type { Address, Hash, Hex } from 'viem';
import { anvilAccounts } from './anvilAccounts';
import { anvilChain } from './anvilChain';
import { compileContracts } from './compileContracts';

/** One side of a CCTP lane on a bed node. */
export interface CctpBedSide {
  readonly rpcUrl: string;
  readonly chainId: number;
  /** The CCTP domain of the chain the node stands for (Base 6, Arbitrum 3). */
  readonly domain: number;
  /** The bed's USDC on that node (TestUSDC: the messenger burns and mints it). */
  readonly usdc: Address;
}

/** The CCTP stand-ins deployed on one side. */
export interface CctpBedContracts {
  readonly domain: number;
  readonly rpcUrl: string;
  readonly chainId: number;
  readonly tokenMessenger: Address;
  readonly messageTransmitter: Address;
  readonly usdc: Address;
}

/** The attester key the bed's transmitters trust (anvil account 9); the Iris fake signs with it. */
export function cctpBedAttester() {
  const attester = anvilAccounts()[9];
  if (!attester) throw new Error('bed: no anvil account 9');
  return attester;
}

/**
 * An attestation of a v2 message as the bed transmitters check it: one signature over
 * keccak256(message), by the bed attester unless another key is given (a forged one).
 *
 * @example
 * const attestation = await attestCctpMessage(message);
 */
export function attestCctpMessage(
  message: Hex,
  privateKey: Hex = cctpBedAttester().privateKey,
): Promise<Hex> {
  return sign({ hash: keccak256(message), privateKey, to: 'hex' });
}

/** Where the bed messengers pay the rail fee they keep on a fast mint (anvil account 8). */
export function cctpBedFeeRecipient(): Address {
  const account = anvilAccounts()[8];
  if (!account) throw new Error('bed: no anvil account 8');
  return account.address;
}

/**
 * Deploys TestMessageTransmitterV2 and TestTokenMessengerV2 on every side (from anvil account 0)
 * and links each messenger to the others as its remote, so a burn on one side mints on another
 * once the Iris fake has attested it.
 *
 * @example
 * const [base, arbitrum] = await deployCctpPair([
 *   { rpcUrl: baseBed.anvil.rpcUrl, chainId: 8453, domain: 6, usdc: baseBed.fixtures.usdc },
 *   { rpcUrl: arbBed.anvil.rpcUrl, chainId: 42161, domain: 3, usdc: arbBed.fixtures.usdc },
 * ]);
 */
export async function deployCctpPair(
  sides: readonly CctpBedSide[],
): Promise<readonly CctpBedContracts[]> {
  const artifacts = await compileContracts();
  const [deployer] = anvilAccounts();
  if (!deployer) throw new Error('bed: no anvil account');
  const clients = sides.map((side) => {
    const chain = anvilChain(side.chainId, side.rpcUrl);
    const transport = http(side.rpcUrl, { retryCount: 0 });
    return {
      side,
      reader: createPublicClient({ chain, transport }),
      wallet: createWalletClient({ chain, transport, account: deployer.address }),
    };
  });
  const mined = async (reader: (typeof clients)[number]['reader'], hash: Hash) => {
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`bed: transaction ${hash} reverted`);
    return receipt;
  };
  const deployed: CctpBedContracts[] = [];
  for (const { side, reader, wallet } of clients) {
    const transmitterHash = await wallet.deployContract({
      abi: artifacts.TestMessageTransmitterV2.abi,
      bytecode: artifacts.TestMessageTransmitterV2.bytecode,
      args: [side.domain, cctpBedAttester().address],
    });
    const transmitter = (await mined(reader, transmitterHash)).contractAddress;
    if (!transmitter) throw new Error('bed: no transmitter deployed');
    const messengerHash = await wallet.deployContract({
      abi: artifacts.TestTokenMessengerV2.abi,
      bytecode: artifacts.TestTokenMessengerV2.bytecode,
      args: [transmitter, side.usdc, cctpBedFeeRecipient()],
    });
    const messenger = (await mined(reader, messengerHash)).contractAddress;
    if (!messenger) throw new Error('bed: no token messenger deployed');
    await mined(
      reader,
      await wallet.writeContract({
        address: transmitter,
        abi: artifacts.TestMessageTransmitterV2.abi,
        functionName: 'setTokenMessenger',
        args: [messenger],
        gas: 200_000n,
      }),
    );
    deployed.push({
      domain: side.domain,
      rpcUrl: side.rpcUrl,
      chainId: side.chainId,
      tokenMessenger: getAddress(messenger),
      messageTransmitter: getAddress(transmitter),
      usdc: side.usdc,
    });
  }
  for (const [index, { reader, wallet }] of clients.entries()) {
    const local = deployed[index];
    if (!local) continue;
    for (const remote of deployed.filter((entry) => entry.domain !== local.domain)) {
      await mined(
        reader,
        await wallet.writeContract({
          address: local.tokenMessenger,
          abi: artifacts.TestTokenMessengerV2.abi,
          functionName: 'addRemoteTokenMessenger',
          args: [remote.domain, pad(remote.tokenMessenger, { size: 32 })],
          gas: 200_000n,
        }),
      );
    }
  }
  return deployed;
}

/**
 * Registers a remote domain's token messenger (bytes32) on a bed messenger, e.g. Sui's (the Sui
 * fake's `tokenMessengerIdentifier`), so burns towards it are sent and its messages are minted.
 */
export async function addCctpRemote(
  side: CctpBedContracts,
  remote: { readonly domain: number; readonly tokenMessenger: Hash },
): Promise<void> {
  const artifacts = await compileContracts();
  const [deployer] = anvilAccounts();
  if (!deployer) throw new Error('bed: no anvil account');
  const chain = anvilChain(side.chainId, side.rpcUrl);
  const transport = http(side.rpcUrl, { retryCount: 0 });
  const hash = await createWalletClient({
    chain,
    transport,
    account: deployer.address,
  }).writeContract({
    address: side.tokenMessenger,
    abi: artifacts.TestTokenMessengerV2.abi,
    functionName: 'addRemoteTokenMessenger',
    args: [remote.domain, remote.tokenMessenger],
    gas: 200_000n,
  });
  const receipt = await createPublicClient({ chain, transport }).waitForTransactionReceipt({
    hash,
    pollingInterval: 20,
  });
  if (receipt.status !== 'success') throw new Error(`bed: transaction ${hash} reverted`);
}
