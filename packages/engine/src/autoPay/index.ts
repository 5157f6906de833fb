export * from './autoPayConfig';
export * from './autoPayDocument';
export * from './computeAutoPayRun';
export * from './quoteAutoPay';
export * from './readPayoutLegReceipt';
export * from './readPoolClaim';
export * from './runAutoPay';
export * from './splitAutoPay';
