// Baseline for plan prepares: a one-route Express 5 app that parses the JSON body and stores
// it in one PostgreSQL row — the least any "prepare and store a plan" endpoint must do.
import { randomUUID } from 'node:crypto';
import express from 'express';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const app = express();
app.use(express.json());
app.post('/plan', (req, res, next) => {
  const id = randomUUID();
  pool
    .query('INSERT INTO bench_plans (id, body) VALUES ($1, $2)', [id, JSON.stringify(req.body)])
    .then(() => res.json({ planId: id, status: 'prepared' }), next);
});
pool
  .query('CREATE TABLE IF NOT EXISTS bench_plans (id TEXT PRIMARY KEY, body JSONB NOT NULL)')
  .then(() => {
    const server = app.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address && typeof address === 'object') {
        process.stderr.write(`LISTENING ${address.port}\n`);
      }
    });
  })
  .catch((error: unknown) => {
    process.stderr.write(`baseline failed: ${String(error)}\n`);
    process.exit(1);
  });
process.on('SIGTERM', () => process.exit(0));
