export * from './chainsConfig';
export * from './createChainAdapters';
export * from './readWalletBalance';
