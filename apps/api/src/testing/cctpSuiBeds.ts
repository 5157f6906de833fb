import type { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { pad } from 'viem';
import { startIrisFake, suiIrisSource } from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import {
  addCctpRemote,
  cctpBedAttester,
  deployCctpPair,
  startEvmBed,
} from '@yieldrouter/chain-beds/evm';
import type { CctpBedContracts, EvmBed } from '@yieldrouter/chain-beds/evm';
import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake, SuiFakeCctp } from '@yieldrouter/chain-beds/sui';

/** The Sui bed's USDC, and where the services' bridge fees go on each chain. */
export const SUI_BED_USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
export const SUI_BRIDGE_FEE_RECIPIENT = `0x${'9b'.repeat(32)}`;
export const BASE_BRIDGE_FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';
/** Where CCTP on the Sui fake mints a message's rail fee. */
export const SUI_CCTP_FEE_RECIPIENT = `0x${'fe'.repeat(32)}`;

/** Base with the CCTP v2 stand-ins, the Sui fake running CCTP v2, and Iris over both. */
export interface CctpSuiBeds {
  /** Base (chain id 8453, CCTP domain 6) on an anvil. */
  readonly base: EvmBed;
  readonly onBase: CctpBedContracts;
  readonly sui: SuiFake;
  readonly cctp: SuiFakeCctp;
  readonly iris: IrisFake;
  /** A wallet's client of the Sui fake (resolves legs, executes, reads balances). */
  readonly client: SuiJsonRpcClient;
  /** The app's settings for both chains and both rails' ends (keys are the caller's). */
  readonly settings: Record<string, string>;
  /** Resolves a Sui leg's transaction JSON as a wallet does, signs it with `wallet`, runs it. */
  executeSuiLeg(
    transaction: string,
    wallet: Ed25519Keypair,
  ): Promise<{ digest: string; ok: boolean }>;
  /** USDC micros `owner` holds on the Sui fake. */
  suiUsdcOf(owner: string): Promise<bigint>;
  stop(): Promise<void>;
}

/**
 * Starts Base (the stand-ins, linked to Sui's token messenger as domain 8), the Sui fake with
 * Circle's CCTP v2 packages (Base as its remote domain 6, the bed attester trusted) and the
 * Iris fake attesting burns from both.
 */
export async function startCctpSuiBeds(): Promise<CctpSuiBeds> {
  const [base, sui] = await Promise.all([startEvmBed({ chainId: 8453 }), startSuiFake()]);
  const [onBase] = await deployCctpPair([
    { rpcUrl: base.anvil.rpcUrl, chainId: 8453, domain: 6, usdc: base.fixtures.usdc },
  ]);
  if (!onBase) throw new Error('no CCTP bed');
  const cctp = sui.addCctp({
    usdcCoinType: SUI_BED_USDC,
    attester: cctpBedAttester().address,
    remotes: [
      {
        domain: 6,
        tokenMessenger: pad(onBase.tokenMessenger, { size: 32 }),
        usdc: pad(onBase.usdc, { size: 32 }),
      },
    ],
    feeRecipient: SUI_CCTP_FEE_RECIPIENT,
  });
  await addCctpRemote(onBase, { domain: 8, tokenMessenger: cctp.tokenMessengerIdentifier });
  const iris = await startIrisFake({
    domains: [
      { domain: 6, rpcUrl: onBase.rpcUrl, messageTransmitter: onBase.messageTransmitter },
      suiIrisSource({
        rpcUrl: sui.rpcUrl,
        messageTransmitterPackage: cctp.messageTransmitterPackage,
      }),
    ],
  });
  const client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: sui.rpcUrl }),
  });
  return {
    base,
    onBase,
    sui,
    cctp,
    iris,
    client,
    settings: {
      SVC_BASE_RPC_URL: base.anvil.rpcUrl,
      SVC_BASE_USDC_ADDRESS: base.fixtures.usdc,
      SVC_BASE_CCTP_TOKEN_MESSENGER: onBase.tokenMessenger,
      SVC_BASE_CCTP_MESSAGE_TRANSMITTER: onBase.messageTransmitter,
      SVC_BASE_BRIDGE_FEE_RECIPIENT: BASE_BRIDGE_FEE_RECIPIENT,
      SVC_SUI_RPC_URL: sui.rpcUrl,
      SVC_SUI_NETWORK: 'localnet',
      SVC_SUI_USDC_COIN_TYPE: SUI_BED_USDC,
      SVC_SUI_BRIDGE_FEE_RECIPIENT: SUI_BRIDGE_FEE_RECIPIENT,
      SVC_CCTP_ATTESTATION_URL: iris.url,
      SVC_CCTP_TIMEOUT_MS: '1000',
      SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE: cctp.tokenMessengerMinterPackage,
      SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE: cctp.messageTransmitterPackage,
      SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE: cctp.stablecoinHandlerPackage,
      SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE: cctp.tokenMessengerMinterState.objectId,
      SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE: cctp.messageTransmitterState.objectId,
      SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE: cctp.stablecoinHandlerState.objectId,
      SVC_CCTP_SUI_USDC_TREASURY: cctp.usdcTreasury.objectId,
    },
    async executeSuiLeg(transaction, wallet) {
      const tx = Transaction.from(transaction);
      tx.setSender(wallet.toSuiAddress());
      tx.setGasPrice(sui.referenceGasPrice);
      tx.setGasBudget(20_000_000n);
      const bytes = await tx.build({ client });
      const { signature } = await wallet.signTransaction(bytes);
      const result = await client.executeTransactionBlock({
        transactionBlock: bytes,
        signature,
        options: { showEffects: true },
      });
      return { digest: result.digest, ok: result.effects?.status.status === 'success' };
    },
    suiUsdcOf: async (owner) =>
      BigInt((await client.getBalance({ owner, coinType: SUI_BED_USDC })).totalBalance),
    stop: async () => {
      await iris.close();
      await Promise.all([base.stop(), sui.stop()]);
    },
  };
}
