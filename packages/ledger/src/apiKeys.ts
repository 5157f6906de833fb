import type { Books } from './books';
import { createHmac, randomBytes } from 'node:crypto';
import type { ApiKeyRole } from './generated/prisma/client';

/** HMAC-SHA256 of a raw key with the server secret: the only form a key is stored in. */
export function hashApiKey(key: string, secret: string): string {
  return createHmac('sha256', secret).update(key).digest('hex');
}

/** A new raw key: `svc_<role>_` + 32 random bytes, base64url. */
export function generateApiKey(role: ApiKeyRole): string {
  return `svc_${role}_${randomBytes(32).toString('base64url')}`;
}

export interface CreateApiKeyInput {
  readonly role: ApiKeyRole;
  readonly wallets: readonly string[];
  readonly label?: string;
}

export interface CreatedApiKey {
  readonly id: string;
  /** Shown once; only its hash is stored. */
  readonly key: string;
  readonly prefix: string;
  readonly role: ApiKeyRole;
  readonly wallets: readonly string[];
  readonly createdAt: Date;
}

export interface ApiKeyRecord {
  readonly id: string;
  readonly prefix: string;
  readonly role: ApiKeyRole;
  readonly wallets: readonly string[];
  readonly label: string | null;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** Every column but the hash, which never leaves the repository. */
const PUBLIC_COLUMNS = {
  id: true,
  prefix: true,
  role: true,
  wallets: true,
  label: true,
  createdAt: true,
  revokedAt: true,
} as const;

export async function createApiKey(
  db: Books,
  input: CreateApiKeyInput,
  secret: string,
): Promise<CreatedApiKey> {
  const key = generateApiKey(input.role);
  const row = await db.apiKey.create({
    data: {
      id: `key_${randomBytes(8).toString('hex')}`,
      keyHash: hashApiKey(key, secret),
      prefix: key.slice(0, 12),
      role: input.role,
      wallets: [...input.wallets],
      label: input.label ?? null,
    },
  });
  return {
    id: row.id,
    key,
    prefix: row.prefix,
    role: row.role,
    wallets: row.wallets,
    createdAt: row.createdAt,
  };
}

/** The active key with that hash, or null when unknown or revoked. */
export async function findActiveApiKeyByHash(
  db: Books,
  keyHash: string,
): Promise<ApiKeyRecord | null> {
  return db.apiKey.findFirst({
    where: { keyHash, revokedAt: null },
    select: PUBLIC_COLUMNS,
  });
}

/** Every key, newest first; hashes are never returned. */
export async function listApiKeys(db: Books): Promise<ApiKeyRecord[]> {
  return db.apiKey.findMany({
    orderBy: { createdAt: 'desc' },
    select: PUBLIC_COLUMNS,
  });
}

/** Revokes a key; false when unknown or already revoked. */
export async function revokeApiKey(db: Books, id: string): Promise<boolean> {
  const result = await db.apiKey.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return result.count === 1;
}
