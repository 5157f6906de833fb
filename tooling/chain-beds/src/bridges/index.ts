// Bridge rail beds: Circle's attestation service (Iris v2) over the bed nodes, and the two-chain CCTP bed.
export * from './startIrisFake';
export * from './startCctpBed';
export * from './suiIrisSource';
export * from './solanaIrisSource';
export * from './linkCctpSolana';
