export * from './apiKeys';
export * from './createDatabase';
export * from './migrate';
export type { ApiKeyRole, Prisma, PrismaClient } from './generated/prisma/client';
export * from './venues';
export * from './plans';
export * from './journal';
export * from './verifyLedger';
