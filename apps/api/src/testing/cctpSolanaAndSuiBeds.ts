import {
  linkCctpSolana,
  solanaIrisSource,
  startIrisFake,
  suiIrisSource,
} from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaCctpDeployment } from '@yieldrouter/chain-beds';
import { solanaCctpSettings } from './cctpSolanaSuiBeds';
import { startSuiCctpFake } from './suiCctpFake';
import type { SuiCctpFake } from './suiCctpFake';

/** Solana and Sui, each with CCTP v2 linked to the other, and Iris over both: no EVM chain. */
export interface CctpSolanaAndSuiBeds extends SuiCctpFake {
  readonly solana: SolanaBed;
  /** The stand-in programs on the Solana bed, linked to Sui's packages (domain 8). */
  readonly onSolana: SolanaCctpDeployment;
  /** Attests burns on Solana (domain 5) and on Sui (domain 8). */
  readonly iris: IrisFake;
  /** The app's settings for both chains and the rail (keys are the caller's). */
  readonly settings: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts the Solana bed and the Sui fake, links their CCTP v2 ends to each other
 * (`linkCctpSolana` with `sui`: the stand-in programs know Sui as domain 8, the Sui packages
 * know Solana as domain 5) and starts the Iris fake attesting burns on both; for the lanes
 * between Solana and Sui. `solanaBridgeFeeRecipient` takes the bridge's service fee on Solana.
 */
export async function startCctpSolanaAndSuiBeds(
  solanaBridgeFeeRecipient: string,
): Promise<CctpSolanaAndSuiBeds> {
  const [solana, onSui] = await Promise.all([startSolanaBed(), startSuiCctpFake()]);
  const { sui, cctp } = onSui;
  const onSolana = await linkCctpSolana(solana, [], { sui: cctp });
  const iris = await startIrisFake({
    domains: [
      solanaIrisSource({
        rpcUrl: solana.rpcUrl,
        tokenMessengerMinter: onSolana.tokenMessengerMinter,
      }),
      suiIrisSource({
        rpcUrl: sui.rpcUrl,
        messageTransmitterPackage: cctp.messageTransmitterPackage,
      }),
    ],
  });
  return {
    ...onSui,
    solana,
    onSolana,
    iris,
    settings: {
      ...solanaCctpSettings(solana, onSolana, solanaBridgeFeeRecipient),
      ...onSui.suiSettings,
      SVC_CCTP_ATTESTATION_URL: iris.url,
      SVC_CCTP_TIMEOUT_MS: '1000',
    },
    stop: async () => {
      await iris.close();
      await Promise.all([solana.stop(), sui.stop()]);
    },
  };
}
