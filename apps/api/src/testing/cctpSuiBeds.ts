import { pad } from 'viem';
import { startIrisFake, suiIrisSource } from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import { addCctpRemote, deployCctpPair, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { CctpBedContracts, EvmBed } from '@yieldrouter/chain-beds/evm';
import { SUI_CCTP_DOMAIN } from '@yieldrouter/chain-beds/sui';
import { startSuiCctpFake } from './suiCctpFake';
import type { SuiCctpFake } from './suiCctpFake';

export { SUI_BED_USDC, SUI_BRIDGE_FEE_RECIPIENT, SUI_CCTP_FEE_RECIPIENT } from './suiCctpFake';
/** Where the service's bridge fee goes on Base. */
export const BASE_BRIDGE_FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/** Base with the CCTP v2 stand-ins, the Sui fake running CCTP v2, and Iris over both. */
export interface CctpSuiBeds extends SuiCctpFake {
  /** Base (chain id 8453, CCTP domain 6) on an anvil. */
  readonly base: EvmBed;
  readonly onBase: CctpBedContracts;
  readonly iris: IrisFake;
  /** The app's settings for both chains and both rails' ends (keys are the caller's). */
  readonly settings: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts Base (the stand-ins, linked to Sui's token messenger as domain 8), the Sui fake with
 * Circle's CCTP v2 packages (Base as its remote domain 6, the bed attester trusted) and the
 * Iris fake attesting burns from both.
 */
export async function startCctpSuiBeds(): Promise<CctpSuiBeds> {
  const [base, onSui] = await Promise.all([startEvmBed({ chainId: 8453 }), startSuiCctpFake()]);
  const [onBase] = await deployCctpPair([
    { rpcUrl: base.anvil.rpcUrl, chainId: 8453, domain: 6, usdc: base.fixtures.usdc },
  ]);
  if (!onBase) throw new Error('no CCTP bed');
  const { sui, cctp } = onSui;
  cctp.addRemote({
    domain: 6,
    tokenMessenger: pad(onBase.tokenMessenger, { size: 32 }),
    usdc: pad(onBase.usdc, { size: 32 }),
  });
  await addCctpRemote(onBase, {
    domain: SUI_CCTP_DOMAIN,
    tokenMessenger: cctp.tokenMessengerIdentifier,
  });
  const iris = await startIrisFake({
    domains: [
      { domain: 6, rpcUrl: onBase.rpcUrl, messageTransmitter: onBase.messageTransmitter },
      suiIrisSource({
        rpcUrl: sui.rpcUrl,
        messageTransmitterPackage: cctp.messageTransmitterPackage,
      }),
    ],
  });
  return {
    ...onSui,
    base,
    onBase,
    iris,
    settings: {
      ...onSui.suiSettings,
      SVC_BASE_RPC_URL: base.anvil.rpcUrl,
      SVC_BASE_USDC_ADDRESS: base.fixtures.usdc,
      SVC_BASE_CCTP_TOKEN_MESSENGER: onBase.tokenMessenger,
      SVC_BASE_CCTP_MESSAGE_TRANSMITTER: onBase.messageTransmitter,
      SVC_BASE_BRIDGE_FEE_RECIPIENT: BASE_BRIDGE_FEE_RECIPIENT,
      SVC_CCTP_ATTESTATION_URL: iris.url,
      SVC_CCTP_TIMEOUT_MS: '1000',
    },
    stop: async () => {
      await iris.close();
      await Promise.all([base.stop(), sui.stop()]);
    },
  };
}
