// Run by clientErrors.test.ts on another Node line: `node --import tsx clientErrorsProbe.ts
// [answer]` sends a request with a 120-kB URL to a server (with answerClientErrors when
// `answer` is given) and prints what the client saw as one JSON line.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientErrors } from '../http/clientErrors';
import { sendOversizedRequest } from './oversizedRequest';

const server = http.createServer((_req, res) => res.end('ok'));
if (process.argv.includes('answer')) answerClientErrors(server);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  void sendOversizedRequest(port).then((seen) => {
    process.stdout.write(`${JSON.stringify({ node: process.version, ...seen })}\n`);
    server.close();
  });
});
