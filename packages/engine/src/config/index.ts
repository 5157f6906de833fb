export * from './configError';
export * from './createServiceLogger';
export * from './readSettings';
export * from './serializeError';
export * from './serviceSettings';
export * from './settingTypes';
export * from './venueSettings';
export * from './webhookSettings';
