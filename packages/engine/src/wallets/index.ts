export * from './autoYield';
export * from './prepareExit';
export * from './prepareRoute';
export * from './previewRoute';
export * from './publicDocuments';
export * from './readPositions';
export * from './settleLeg';
export * from './walletAddress';
