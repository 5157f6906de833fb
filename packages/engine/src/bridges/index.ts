export * from './bridgeRail';
export * from './cctpSettings';
export * from './createCctpRail';
export * from './prepareBridgePlan';
export * from './confirmBridgeDelivery';
export * from './readIrisMessage';
export * from './readCctpFee';
export * from './watchBridgeDeliveries';
