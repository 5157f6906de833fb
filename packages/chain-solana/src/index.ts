export { createSolanaAdapter } from './createSolanaAdapter';
export type { SolanaAdapterConfig } from './solanaAdapterConfig';
export { MEMO_PROGRAM_ID, planMemoText } from './instructions/planMemo';
export {
  ROUTER_INSTRUCTIONS,
  decodeRouterInstructionData,
  encodeRouterInstructionData,
  routerDiscriminator,
} from './instructions/routerInstructionData';
export type {
  RouterInstructionData,
  RouterInstructionName,
} from './instructions/routerInstructionData';
export { routerVault } from './tokenAccounts';
export { createSolanaContext } from './solanaContext';
export type { SolanaContext } from './solanaContext';
export { associatedTokenAccount } from './tokenAccounts';
export { parsePublicKey } from './parsePublicKey';
export type { CctpSolanaPrograms } from './cctp/cctpSolanaPrograms';
export { cctpSolanaPdas } from './cctp/cctpSolanaPrograms';
export {
  DEPOSIT_FOR_BURN_DISCRIMINATOR,
  RECEIVE_MESSAGE_DISCRIMINATOR,
  decodeDepositForBurnData,
  decodeReceiveMessageData,
} from './cctp/cctpSolanaInstructions';
export { buildCctpSolanaBurn } from './cctp/buildCctpSolanaBurn';
export { buildCctpSolanaMint } from './cctp/buildCctpSolanaMint';
export { readCctpSolanaBurn } from './cctp/readCctpSolanaBurn';
export type { CctpSolanaBurnReading } from './cctp/readCctpSolanaBurn';
export { readCctpSolanaMint } from './cctp/readCctpSolanaMint';
export { findCctpSolanaMint } from './cctp/findCctpSolanaMint';
export type { CctpSolanaMintSearch } from './cctp/findCctpSolanaMint';
export type { CctpSolanaMintReading } from './cctp/readCctpSolanaMint';
export {
  cctpSolanaMintRecipient,
  parseCctpSolanaPrograms,
  solanaAddressOfBytes32,
} from './cctp/cctpSolanaRecipient';
export { SOLANA_VENUE_PROTOCOLS } from './venues/solanaVenueProtocols';
export { SOLANA_VENUE_LAYOUT } from './venues/solanaVenueProtocol';
export type {
  SolanaVenueLayout,
  SolanaVenueProtocol,
  SolanaVenueUnit,
  VenueCall,
  VenueCallInput,
  VenueExchangeRate,
} from './venues/solanaVenueProtocol';
