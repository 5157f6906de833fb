// The bare baseline: a one-route Express 5 app answering a JSON body of similar size.
import express from 'express';

const app = express();
const body = {
  schemaVersion: 'svc-status.v1',
  phase: 'phase-1',
  launchHomes: { executable: ['sui', 'solana'], map: ['base', 'arbitrum'] },
  protocolYieldSkimBps: 500,
};
app.get('/api/v1/svc/status', (_req, res) => {
  res.json(body);
});
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`LISTENING ${address.port}\n`);
});
