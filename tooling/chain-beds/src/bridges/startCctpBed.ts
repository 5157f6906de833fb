import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hash, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilChain } from '../evm/anvilChain';
import { deployCctpPair } from '../evm/deployCctpPair';
import type { SolanaCctpDeployment } from '../solana/deployCctpSolana';
import type { SolanaBed } from '../solana/startSolanaBed';
import { linkCctpSolana } from './linkCctpSolana';
import { solanaIrisSource } from './solanaIrisSource';
import type { CctpBedContracts } from '../evm/deployCctpPair';
import { startEvmBed } from '../evm/startEvmBed';
import type { EvmBed } from '../evm/startEvmBed';
import { startIrisFake } from './startIrisFake';
import type { IrisFake } from './startIrisFake';

export interface StartCctpBedParameters {
  /** Where the service's bridge fee is paid on both chains (set in `settings` when given). */
  readonly feeRecipient?: Address;
  /** The attestation fake's fast-transfer fee in bps. */
  readonly fastFeeBps?: number;
  /** Nodes already running (8453 and 42161, fixtures deployed): used, and left running. */
  readonly beds?: { readonly base: EvmBed; readonly arbitrum: EvmBed };
  /**
   * A Solana bed (left running) to link too: the CCTP stand-in programs are deployed in it
   * (`deployCctpSolana`), both anvils' messengers and it register each other, the Iris fake
   * attests its burns, and the settings name its programs.
   */
  readonly solana?: SolanaBed;
}

/** Two anvils standing for Base and Arbitrum with the CCTP v2 stand-ins, and the Iris fake. */
export interface CctpBed {
  readonly base: EvmBed;
  readonly arbitrum: EvmBed;
  readonly contracts: { readonly base: CctpBedContracts; readonly arbitrum: CctpBedContracts };
  /** The stand-in programs in the Solana bed, when one was given. */
  readonly solana?: SolanaCctpDeployment;
  readonly iris: IrisFake;
  /** The service's settings for this bed (RPC URLs, USDC, CCTP contracts, attestation URL). */
  readonly settings: Readonly<Record<string, string>>;
  /** Signs `transaction` (a leg's `{to, data}`) with `privateKey` and sends it; its hash, mined. */
  send(
    side: CctpBedSideName,
    transaction: { readonly to: string; readonly data: string },
    privateKey: Hex,
  ): Promise<Hash>;
  /** The bed USDC `who` holds on `side`. */
  usdcOf(side: CctpBedSideName, who: Address): Promise<bigint>;
  stop(): Promise<void>;
}

export type CctpBedSideName = 'base' | 'arbitrum';

const CHAIN_IDS: Readonly<Record<CctpBedSideName, number>> = { base: 8453, arbitrum: 42161 };

/**
 * Starts a Base (8453, domain 6) and an Arbitrum (42161, domain 3) anvil with the fixtures,
 * deploys the CCTP stand-ins on both, and starts the Iris-shaped attestation fake over them;
 * everything started is stopped again if a step fails.
 *
 * @example
 * const bed = await startCctpBed();
 * const app = await startTestApp({ ...bed.settings });
 * await bed.stop();
 */
export async function startCctpBed(parameters: StartCctpBedParameters = {}): Promise<CctpBed> {
  const { base, arbitrum } = parameters.beds ?? (await startBeds());
  const own = parameters.beds === undefined;
  const stopBeds = async () => {
    if (own) await Promise.all([base.stop(), arbitrum.stop()]);
  };
  try {
    const [onBase, onArbitrum] = await deployCctpPair([
      { rpcUrl: base.anvil.rpcUrl, chainId: 8453, domain: 6, usdc: base.fixtures.usdc },
      { rpcUrl: arbitrum.anvil.rpcUrl, chainId: 42161, domain: 3, usdc: arbitrum.fixtures.usdc },
    ]);
    if (!onBase || !onArbitrum) throw new Error('cctp bed: the stand-ins were not deployed');
    const onSolana = parameters.solana
      ? await linkCctpSolana(parameters.solana, [onBase, onArbitrum])
      : undefined;
    const iris = await startIrisFake({
      domains: [
        ...[onBase, onArbitrum].map(({ domain, rpcUrl, messageTransmitter }) => ({
          domain,
          rpcUrl,
          messageTransmitter,
        })),
        ...(parameters.solana && onSolana
          ? [
              solanaIrisSource({
                rpcUrl: parameters.solana.rpcUrl,
                tokenMessengerMinter: onSolana.tokenMessengerMinter,
              }),
            ]
          : []),
      ],
      ...(parameters.fastFeeBps === undefined ? {} : { fastFeeBps: parameters.fastFeeBps }),
    });
    const fee = parameters.feeRecipient;
    const settings: Record<string, string> = {
      SVC_BASE_RPC_URL: base.anvil.rpcUrl,
      SVC_BASE_USDC_ADDRESS: base.fixtures.usdc,
      SVC_ARBITRUM_RPC_URL: arbitrum.anvil.rpcUrl,
      SVC_ARBITRUM_USDC_ADDRESS: arbitrum.fixtures.usdc,
      SVC_CCTP_ATTESTATION_URL: iris.url,
      SVC_BASE_CCTP_TOKEN_MESSENGER: onBase.tokenMessenger,
      SVC_BASE_CCTP_MESSAGE_TRANSMITTER: onBase.messageTransmitter,
      SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: onArbitrum.tokenMessenger,
      SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: onArbitrum.messageTransmitter,
      ...(fee
        ? { SVC_BASE_BRIDGE_FEE_RECIPIENT: fee, SVC_ARBITRUM_BRIDGE_FEE_RECIPIENT: fee }
        : {}),
      ...(onSolana
        ? {
            SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER: onSolana.tokenMessengerMinter,
            SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER: onSolana.messageTransmitter,
            SVC_CCTP_SOLANA_FEE_RECIPIENT: onSolana.feeRecipient,
          }
        : {}),
    };
    const beds = { base, arbitrum };
    const reader = (side: CctpBedSideName) =>
      createPublicClient({
        chain: anvilChain(CHAIN_IDS[side], beds[side].anvil.rpcUrl),
        transport: http(beds[side].anvil.rpcUrl, { retryCount: 0 }),
      });
    return {
      base,
      arbitrum,
      contracts: { base: onBase, arbitrum: onArbitrum },
      ...(onSolana ? { solana: onSolana } : {}),
      iris,
      settings,
      send: async (side, transaction, privateKey) => {
        const wallet = createWalletClient({
          chain: anvilChain(CHAIN_IDS[side], beds[side].anvil.rpcUrl),
          transport: http(beds[side].anvil.rpcUrl, { retryCount: 0 }),
          account: privateKeyToAccount(privateKey),
        });
        const hash = await wallet.sendTransaction({
          to: transaction.to as Address,
          data: transaction.data as Hex,
          gas: 1_000_000n,
        });
        const receipt = await reader(side).waitForTransactionReceipt({ hash, pollingInterval: 20 });
        if (receipt.status !== 'success') throw new Error(`cctp bed: ${hash} reverted`);
        return hash;
      },
      usdcOf: (side, who) =>
        reader(side).readContract({
          address: beds[side].fixtures.usdc,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [who],
        }),
      stop: async () => {
        await iris.close();
        await stopBeds();
      },
    };
  } catch (error) {
    await stopBeds();
    throw error;
  }
}

/** A Base and an Arbitrum node with the fixtures; neither is left running if one fails. */
async function startBeds(): Promise<{ base: EvmBed; arbitrum: EvmBed }> {
  const started = await Promise.allSettled([
    startEvmBed({ chainId: 8453 }),
    startEvmBed({ chainId: 42161 }),
  ]);
  const beds = started.flatMap((entry) => (entry.status === 'fulfilled' ? [entry.value] : []));
  const [base, arbitrum] = beds;
  if (!base || !arbitrum || beds.length !== 2) {
    await Promise.all(beds.map((bed) => bed.stop()));
    const failed = started.find((entry) => entry.status === 'rejected');
    throw failed?.status === 'rejected' ? failed.reason : new Error('cctp bed: no nodes');
  }
  return { base, arbitrum };
}
