import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startCctpBeds } from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import { anvilChain } from '@yieldrouter/chain-beds/evm';
import type { EvmBed } from '@yieldrouter/chain-beds/evm';

/** Base and Arbitrum anvils with the CCTP v2 stand-ins, and the Iris-shaped attestation fake. */
export interface CctpBridgeBed {
  readonly base: EvmBed;
  readonly arbitrum: EvmBed;
  readonly iris: IrisFake;
  /** The API settings that point the CCTP rail (and both chains) at the bed. */
  readonly settings: Readonly<Record<string, string>>;
  /** USDC micros `who` holds on `bed`. */
  usdcOf(bed: EvmBed, who: Address): Promise<bigint>;
  /** Signs and sends one leg's EVM transaction with `key`; its hash and whether it ran. */
  sendLeg(bed: EvmBed, leg: unknown, key: Hex): Promise<{ hash: Hex; ok: boolean }>;
  stop(): Promise<void>;
}

export async function startCctpBridgeBed(): Promise<CctpBridgeBed> {
  const { base, arbitrum, onBase, onArbitrum, iris, stop } = await startCctpBeds();
  const chainOf = (bed: EvmBed) => (bed === base ? 8453 : 42161);
  const reader = (bed: EvmBed) =>
    createPublicClient({
      chain: anvilChain(chainOf(bed), bed.anvil.rpcUrl),
      transport: http(bed.anvil.rpcUrl),
    });
  return {
    base,
    arbitrum,
    iris,
    settings: {
      SVC_BASE_RPC_URL: base.anvil.rpcUrl,
      SVC_BASE_USDC_ADDRESS: base.fixtures.usdc,
      SVC_ARBITRUM_RPC_URL: arbitrum.anvil.rpcUrl,
      SVC_ARBITRUM_USDC_ADDRESS: arbitrum.fixtures.usdc,
      SVC_CCTP_ATTESTATION_URL: iris.url,
      SVC_CCTP_TIMEOUT_MS: '1000',
      SVC_BASE_CCTP_TOKEN_MESSENGER: onBase.tokenMessenger,
      SVC_BASE_CCTP_MESSAGE_TRANSMITTER: onBase.messageTransmitter,
      SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: onArbitrum.tokenMessenger,
      SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: onArbitrum.messageTransmitter,
    },
    usdcOf: (bed, who) =>
      reader(bed).readContract({
        address: bed.fixtures.usdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [who],
      }),
    async sendLeg(bed, leg, key) {
      const tx = (leg as { transaction: { to: Address; data: Hex } }).transaction;
      const wallet = createWalletClient({
        chain: anvilChain(chainOf(bed), bed.anvil.rpcUrl),
        transport: http(bed.anvil.rpcUrl),
        account: privateKeyToAccount(key),
      });
      // A fixed gas limit: a leg that reverts is still mined (and its receipt says so).
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, gas: 1_000_000n });
      const receipt = await reader(bed).waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return { hash, ok: receipt.status === 'success' };
    },
    stop,
  };
}
