-- API keys: only an HMAC-SHA256 of the key (server secret) is stored; the key is shown once.
CREATE TYPE "ApiKeyRole" AS ENUM ('owner', 'agent', 'keeper');

CREATE TABLE "api_keys" (
  "id" TEXT PRIMARY KEY,
  "key_hash" TEXT NOT NULL UNIQUE,
  "prefix" TEXT NOT NULL,
  "role" "ApiKeyRole" NOT NULL,
  "wallets" TEXT[] NOT NULL DEFAULT '{}',
  "label" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "revoked_at" TIMESTAMPTZ(3)
);
