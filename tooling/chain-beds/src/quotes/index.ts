// Quote-source fakes for swap beds: real response shapes, priced from the beds' own pools.
export * from './startZeroExFake';
export * from './startJupiterFake';
export * from './startCetusFake';
