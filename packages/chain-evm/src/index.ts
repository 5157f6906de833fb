export { createEvmAdapter } from './createEvmAdapter';
export type { EvmChainAdapter } from './createEvmAdapter';
export type { EvmAdapterConfig, EvmChain } from './evmContext';
export type { RegistryFeeConfig } from './readRegistryFeeConfig';
export { normalizeEvmAddress } from './normalizeEvmAddress';
export { PLAN_TAG_MAGIC, appendPlanTag, readPlanTag } from './planTag';
export type { BuildEvmSwapParameters } from './buildEvmSwap';
export type { ReadEvmAllowanceParameters, ReadEvmAllowanceReturnType } from './readEvmAllowance';
export type { ReadEvmSwapReceiptParameters } from './readEvmSwapReceipt';
export { cageAbi } from './cageAbi';
export { createEvmCage } from './createEvmCage';
export type { EvmCage, EvmCageConfig } from './createEvmCage';
export { encodeCageAction, encodeCagePolicy } from './encodeCageCall';
export type {
  CageCall,
  EncodeCageActionParameters,
  EncodeCagePolicyParameters,
} from './encodeCageCall';
export type { CageState, CageVenueState, ReadCageStateReturnType } from './readCageState';
export type { BuildEvmUnwrapParameters } from './buildEvmUnwrap';
export type { ReadEvmUnwrapReceiptParameters } from './readEvmUnwrapReceipt';
export type { SizeEvmGasParameters, SizeEvmGasReturnType } from './sizeEvmGas';
export { createEvmContext } from './evmContext';
export type { EvmContext } from './evmContext';
export { messageTransmitterV2Abi, tokenMessengerV2Abi } from './cctpAbi';
export { buildCctpBurn } from './buildCctpBurn';
export type { BuildCctpBurnParameters } from './buildCctpBurn';
export { buildCctpMint } from './buildCctpMint';
export type { BuildCctpMintParameters } from './buildCctpMint';
export { readCctpBurnReceipt } from './readCctpBurnReceipt';
export type {
  ReadCctpBurnReceiptParameters,
  ReadCctpBurnReceiptReturnType,
} from './readCctpBurnReceipt';
export { findCctpMint } from './findCctpMint';
export type { FindCctpMintParameters, FindCctpMintReturnType } from './findCctpMint';
export { readCctpMintReceipt } from './readCctpMintReceipt';
export type {
  ReadCctpMintReceiptParameters,
  ReadCctpMintReceiptReturnType,
} from './readCctpMintReceipt';
export { readEvmAllowance } from './readEvmAllowance';
export { keepAliveFetch } from './keepAliveFetch';
export { EVM_VENUE_IDS, siloConfigAbi } from './siloMarket';
