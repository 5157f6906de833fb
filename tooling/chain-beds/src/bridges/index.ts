// Bridge rail fakes: Circle's attestation service (Iris v2) over the bed nodes.
export * from './startIrisFake';
export * from './startCctpBeds';
