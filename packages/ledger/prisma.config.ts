// Prisma CLI config. `engine: 'js'` + an adapter keeps the CLI on its WebAssembly engines, so
// `prisma generate` needs no binary download. Migrations are applied by src/migrate.ts.
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  adapter: async () =>
    new PrismaPg({ connectionString: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' }),
});
