// The bare baseline: a one-route Express 5 app (GET BENCH_PATH).
// It serves the very document our API served (BENCH_BODY_FILE), so the ratio measures the
// manifest, validation, auth, rate limiting and logging, not the payload size.
import { readFileSync } from 'node:fs';
import express from 'express';

const app = express();
const bodyFile = process.env['BENCH_BODY_FILE'];
if (!bodyFile) throw new Error('BENCH_BODY_FILE is required');
const body: unknown = JSON.parse(readFileSync(bodyFile, 'utf8'));
// Routes match the path only: a benchmarked URL's query string is not part of it.
const routePath = (process.env['BENCH_PATH'] ?? '/api/v1/svc/status').split('?')[0] as string;
app.get(routePath, (_req, res) => {
  res.json(body);
});
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stderr.write(`LISTENING ${address.port}\n`);
});
