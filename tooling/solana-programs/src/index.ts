// Our Solana programs in C, and the tools that build them into SBPFv0 `.so` files.
export { CLANG_SBPF_FLAGS, PROGRAM_INCLUDE_DIR, compileSbpfProgram } from './compileSbpfProgram';
export type { CompileSbpfProgramParameters } from './compileSbpfProgram';
export { SBPF_PROGRAM_START, SbpfLinkError, linkSbpfProgram } from './linkSbpfProgram';
export type { LinkedSbpfProgram } from './linkSbpfProgram';
export { createMintInstructions } from './createMintInstructions';
export type { CreateMintInstructionsParameters } from './createMintInstructions';
export { ensureProgramsBuilt } from './ensureProgramsBuilt';
export { loadProgram } from './loadProgram';
export { PROGRAMS, programSoPath, programSource } from './programPaths';
export type { ProgramName } from './programPaths';
export {
  ata,
  discriminator,
  initializeRouter,
  initializeVenue,
  legData,
  MEMO_PROGRAM_ID,
  planMemo,
  positionPda,
  programDataAddress,
  registerAdapter,
  registryPda,
  routerDeposit,
  routerPda,
  routerVenueCall,
  routerVenueLeg,
  routerWithdraw,
  setFeeConfig,
  testVenueAccounts,
  VENUE_LAYOUT,
  venueAccrue,
  venueMove,
  venuePda,
  venuePositionPda,
} from './programInstructions';
export type {
  RouterLeg,
  RouterVenueCall,
  VenueAccounts,
  VenueLayoutId,
} from './programInstructions';
export { deployKlendStandin } from './deployKlendStandin';
export type { DeployKlendStandinParameters, SendInstructions } from './deployKlendStandin';
export {
  KLEND_MARKET_SIZE,
  KLEND_PROGRAM_ID,
  KLEND_RESERVE_SIZE,
  klendMarketAuthority,
  klendMove,
  klendMoveAccounts,
  klendRefreshReserve,
  standinBorrow,
  standinInitMarket,
  standinInitReserve,
  standinSetSkim,
} from './klendStandinInstructions';
export type { KlendStandinReserve } from './klendStandinInstructions';
export { cpPoolAccounts, cpPoolQuote, cpPoolSwap, initializeCpPool } from './cpPoolInstructions';
export type { CpPoolAccounts, CpPoolSwap } from './cpPoolInstructions';
export { cctpStandinAccounts, cctpStandinPdas } from './cctpStandin';
export { tokenAccountData } from './tokenAccountData';
export type {
  CctpStandinAccount,
  CctpStandinPrograms,
  CctpStandinRemote,
  CctpStandinState,
} from './cctpStandin';
