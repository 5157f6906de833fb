export * from './pool';
export * from './server';
