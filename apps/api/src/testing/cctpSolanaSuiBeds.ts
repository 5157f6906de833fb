import { parseAbi } from 'viem';
import { linkCctpSolana, solanaIrisSource, startIrisFake } from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import { deployCctpPair, startEvmBed } from '@yieldrouter/chain-beds/evm';
import type { CctpBedContracts, EvmBed } from '@yieldrouter/chain-beds/evm';
import { startSolanaBed } from '@yieldrouter/chain-beds';
import type { SolanaBed, SolanaCctpDeployment } from '@yieldrouter/chain-beds';

/**
 * The app's settings for Solana on the litesvm bed (its RPC and USDC mint) with our CCTP v2
 * stand-in programs (`linkCctpSolana`); the bridge's fee recipient on Solana is
 * `bridgeFeeRecipient`.
 */
export const solanaCctpSettings = (
  solana: SolanaBed,
  onSolana: SolanaCctpDeployment,
  bridgeFeeRecipient: string,
): Record<string, string> => ({
  SVC_SOLANA_RPC_URL: solana.rpcUrl,
  SVC_SOLANA_USDC_MINT: solana.usdcMint,
  SVC_CCTP_SOLANA_TOKEN_MESSENGER_MINTER: onSolana.tokenMessengerMinter,
  SVC_CCTP_SOLANA_MESSAGE_TRANSMITTER: onSolana.messageTransmitter,
  SVC_CCTP_SOLANA_FEE_RECIPIENT: onSolana.feeRecipient,
  SVC_SOLANA_BRIDGE_FEE_RECIPIENT: bridgeFeeRecipient,
});

/**
 * The app's settings for the CCTP lanes to and from Solana and Sui: Base on an anvil with the
 * CCTP v2 stand-ins (`deployCctpPair`) and the Iris fake, Solana as `solanaCctpSettings`, and
 * Sui's CCTP objects (ids only: no Sui bed runs). Keys and venues are the caller's.
 */
const cctpSolanaSuiSettings = (parts: {
  readonly base: { readonly rpcUrl: string; readonly usdc: string };
  readonly onBase: CctpBedContracts;
  readonly irisUrl: string;
  readonly solana: SolanaBed;
  readonly onSolana: SolanaCctpDeployment;
  readonly solanaBridgeFeeRecipient: string;
}): Record<string, string> => ({
  ...solanaCctpSettings(parts.solana, parts.onSolana, parts.solanaBridgeFeeRecipient),
  SVC_BASE_RPC_URL: parts.base.rpcUrl,
  SVC_BASE_USDC_ADDRESS: parts.base.usdc,
  SVC_CCTP_ATTESTATION_URL: parts.irisUrl,
  SVC_CCTP_TIMEOUT_MS: '1000',
  SVC_BASE_CCTP_TOKEN_MESSENGER: parts.onBase.tokenMessenger,
  SVC_BASE_CCTP_MESSAGE_TRANSMITTER: parts.onBase.messageTransmitter,
  SVC_BASE_BRIDGE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
  SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_PACKAGE: `0x${'71'.repeat(32)}`,
  SVC_CCTP_SUI_MESSAGE_TRANSMITTER_PACKAGE: `0x${'72'.repeat(32)}`,
  SVC_CCTP_SUI_TOKEN_MESSENGER_MINTER_STATE: `0x${'73'.repeat(32)}`,
  SVC_CCTP_SUI_MESSAGE_TRANSMITTER_STATE: `0x${'74'.repeat(32)}`,
  SVC_CCTP_SUI_STABLECOIN_HANDLER_PACKAGE: `0x${'76'.repeat(32)}`,
  SVC_CCTP_SUI_STABLECOIN_HANDLER_STATE: `0x${'77'.repeat(32)}`,
  SVC_CCTP_SUI_USDC_TREASURY: `0x${'75'.repeat(32)}`,
});

/** CCTP v2's `depositForBurn` on an EVM chain, to read a burn leg's destination domain. */
export const CCTP_BURN_ABI = parseAbi([
  'function depositForBurn(uint256 amount, uint32 destinationDomain, bytes32 mintRecipient, address burnToken, bytes32 destinationCaller, uint256 maxFee, uint32 minFinalityThreshold)',
]);

/** The beds the CCTP lanes to and from Solana run on, and the app's settings for them. */
export interface CctpSolanaSuiBeds {
  /** Base (chain id 8453, CCTP domain 6) on an anvil with the CCTP v2 stand-ins. */
  readonly base: EvmBed;
  readonly solana: SolanaBed;
  /** The stand-ins on Base, linked to Solana's (domain 5). */
  readonly onBase: CctpBedContracts;
  /** The stand-in programs on the Solana bed, linked to Base's (domain 6). */
  readonly onSolana: SolanaCctpDeployment;
  /** Attests burns on Base and on Solana. */
  readonly iris: IrisFake;
  /** `cctpSolanaSuiSettings` for these beds (keys and venues are the caller's). */
  readonly settings: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts Base (with the CCTP stand-ins) and the Solana bed (with the CCTP stand-in programs),
 * links the two messengers to each other, and starts the Iris fake attesting burns on both; for
 * the lanes to and from Solana and Sui. `solanaBridgeFeeRecipient` takes the bridge's service
 * fee on Solana.
 */
export async function startCctpSolanaSuiBeds(
  solanaBridgeFeeRecipient: string,
): Promise<CctpSolanaSuiBeds> {
  const [base, solana] = await Promise.all([startEvmBed({ chainId: 8453 }), startSolanaBed()]);
  const [onBase] = await deployCctpPair([
    { rpcUrl: base.anvil.rpcUrl, chainId: 8453, domain: 6, usdc: base.fixtures.usdc },
  ]);
  if (!onBase) throw new Error('no CCTP bed');
  const onSolana = await linkCctpSolana(solana, [onBase]);
  const iris = await startIrisFake({
    domains: [
      { domain: 6, rpcUrl: onBase.rpcUrl, messageTransmitter: onBase.messageTransmitter },
      solanaIrisSource({
        rpcUrl: solana.rpcUrl,
        tokenMessengerMinter: onSolana.tokenMessengerMinter,
      }),
    ],
  });
  return {
    base,
    solana,
    onBase,
    onSolana,
    iris,
    settings: cctpSolanaSuiSettings({
      base: { rpcUrl: base.anvil.rpcUrl, usdc: base.fixtures.usdc },
      onBase,
      irisUrl: iris.url,
      solana,
      onSolana,
      solanaBridgeFeeRecipient,
    }),
    stop: async () => {
      await iris.close();
      await Promise.all([base.stop(), solana.stop()]);
    },
  };
}
