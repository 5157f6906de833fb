// The Solana bed: litesvm in-process behind a JSON-RPC endpoint web3.js `Connection` can use.
export { SOLANA_MAINNET_USDC_MINT, startSolanaBed } from './startSolanaBed';
export type { SolanaBed, StartSolanaBedOptions } from './startSolanaBed';
export type {
  ExecutionOutcome as SolanaExecutionOutcome,
  LedgerEntry as SolanaLedgerEntry,
  RecordedEffects as SolanaRecordedEffects,
} from './solanaLedger';
export type { TransactionErrorJson as SolanaTransactionErrorJson } from './transactionErrorJson';
export { addTestVenue, deployYieldRouter } from './deployYieldRouter';
export type { SolanaRouterDeployment, SolanaTestVenue } from './deployYieldRouter';
export { deployCpPool, wrapSol } from './deployCpPool';
export type { DeployCpPoolParameters, SolanaCpPool } from './deployCpPool';
export { SOLANA_CCTP_DOMAIN, deployCctpSolana } from './deployCctpSolana';
export type {
  DeployCctpSolanaParameters,
  SolanaCctpDeployment,
  SolanaCctpRemote,
} from './deployCctpSolana';
export { JUPITER_LEND_PROGRAM_IDS, deployJupiterLend } from './deployJupiterLend';
export type { SolanaJupiterLend } from './deployJupiterLend';
export { MARGINFI_PROGRAM_ID, deployMarginfi } from './deployMarginfi';
export type { DeployMarginfiParameters, SolanaMarginfiBank } from './deployMarginfi';
export { SAVE_PROGRAM_ID, deploySave, deploySkimmingSave } from './deploySave';
export { deploySkimmingKlend } from './deploySkimmingKlend';
export type { SolanaSkimmingKlend } from './deploySkimmingKlend';
export type { DeploySaveParameters, SolanaSaveReserve, SolanaSkimmingSave } from './deploySave';
export { sendAsAuthority } from './sendAsAuthority';
export type { BedSender, SendAsAuthorityParameters } from './sendAsAuthority';
