export * from './cageCatalog';
export * from './checkCageAction';
export * from './createCages';
export * from './prepareCageAction';
export * from './prepareCagePolicy';
export * from './readWalletCage';
