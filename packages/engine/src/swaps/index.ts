export * from './swapQuoteSource';
export * from './zeroExQuoteResponse';
export * from './createZeroExQuoteSource';
export * from './swapSettings';
export * from './priceSwap';
export * from './prepareEvmSwapPlan';
export * from './priceNativeTopUp';
export * from './prepareGasSponsorPlan';
