export * from './apiKeys';
export * from './createDatabase';
export * from './migrate';
export type { ApiKeyRole, PrismaClient } from './generated/prisma/client';
export * from './venues';
