export * from './types';
export { meanBps } from './meanBps';
export { percentToBps, usdToMicros, APY_PERCENT_MIN, APY_PERCENT_MAX } from './decimalScale';
export { createDefiLlamaReader, DEFILLAMA_SOURCE } from './defiLlamaReader';
export type { DefiLlamaReaderOptions } from './defiLlamaReader';
