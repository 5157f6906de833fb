// Sui chain adapter (JSON-RPC via @mysten/sui). Nothing exported here leaks SDK types.
export { createSuiAdapter } from './adapter';
export type { SuiChainAdapter } from './adapter';
export type { SuiAdapterConfig } from './config';
export { SUI_COIN_TYPE, SUI_DECIMALS } from './config';
export type { SuiObjectRef, SuiResolvedRefs, SuiSharedRef } from './resolvedLegs';
export { createCctpSui } from './cctp/createCctpSui';
export type { CctpSui } from './cctp/createCctpSui';
export type { CctpSuiIds } from './cctp/cctpSuiIds';
export type { CctpSuiBurnReading, CctpSuiMintReading } from './cctp/readCctpSuiReceipts';
export type { CctpSuiMintSearch } from './cctp/findCctpSuiMint';
export { buildSuiSwapLeg } from './swapLeg';
export type { SuiSwapLegHop, SuiSwapLegRequest } from './swapLeg';
export { SUI_VENUE_IDS, SUI_VENUE_OPTIONAL_IDS } from './venues/suiVenue';
