import { createPublicClient, createWalletClient, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startCctpBed } from '@yieldrouter/chain-beds/bridges';
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

/** The shared CCTP bed (`startCctpBed`), with legs sent at a fixed gas so a reverting one is mined. */
export async function startCctpBridgeBed(): Promise<CctpBridgeBed> {
  const bed = await startCctpBed();
  const { base, arbitrum, iris } = bed;
  const chainOf = (on: EvmBed) => (on === base ? 8453 : 42161);
  const sideOf = (on: EvmBed) => (on === base ? 'base' : 'arbitrum');
  const reader = (on: EvmBed) =>
    createPublicClient({
      chain: anvilChain(chainOf(on), on.anvil.rpcUrl),
      transport: http(on.anvil.rpcUrl),
    });
  return {
    base,
    arbitrum,
    iris,
    settings: { ...bed.settings, SVC_CCTP_TIMEOUT_MS: '1000' },
    usdcOf: (on, who) => bed.usdcOf(sideOf(on), who),
    async sendLeg(on, leg, key) {
      const tx = (leg as { transaction: { to: Address; data: Hex } }).transaction;
      const wallet = createWalletClient({
        chain: anvilChain(chainOf(on), on.anvil.rpcUrl),
        transport: http(on.anvil.rpcUrl),
        account: privateKeyToAccount(key),
      });
      // A fixed gas limit: a leg that reverts is still mined (and its receipt says so).
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, gas: 1_000_000n });
      const receipt = await reader(on).waitForTransactionReceipt({ hash, pollingInterval: 20 });
      return { hash, ok: receipt.status === 'success' };
    },
    stop: () => bed.stop(),
  };
}
