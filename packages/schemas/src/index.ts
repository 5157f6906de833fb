export * from './chains';
export * from './documents';
export * from './errors';
export * from './money';
export * from './requests';
export * from './manifest/defineRoute';
export * from './manifest/routes';
export * from './openapi';
