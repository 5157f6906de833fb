export * from './privateRedis';
export * from './serviceProcess';
