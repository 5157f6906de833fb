import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { answerClientErrors } from './clientErrors';
import { sendOversizedRequest } from '../testing/oversizedRequest';

// A request whose URL is over Node's header limit: the client must read the 431, on every Node
// line the service supports. Node 24's own handler resets the connection under a client still
// sending, so this runs the probe on Node 24 too (`npx -y node@24`, as CI's Node 24 pass does).
async function inProcess(answer: boolean) {
  const server = http.createServer((_req, res) => res.end('ok'));
  if (answer) answerClientErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await sendOversizedRequest((server.address() as AddressInfo).port);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

// Node 24's binary: NODE24 when set (.ci/check resolves it once for the run), else npx's.
let node24: string | undefined;
const node24Path = () =>
  (node24 ??=
    process.env['NODE24'] ||
    execFileSync('npx', ['-y', 'node@24', '-e', 'process.stdout.write(process.execPath)'], {
      encoding: 'utf8',
      timeout: 60_000,
    }));

function onNode24(answer: boolean): { node: string; status: number | null; error: string | null } {
  const out = execFileSync(
    node24Path(),
    [
      '--import',
      'tsx',
      path.join(__dirname, '..', 'testing', 'clientErrorsProbe.ts'),
      ...(answer ? ['answer'] : []),
    ],
    { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}');
}

describe('answerClientErrors', () => {
  it(`a 120-kB URL is answered 431 and read by the client (${process.version})`, async () => {
    expect(await inProcess(true)).toEqual({ status: 431, error: null });
  });

  it('on Node 24 too, where its own handler resets the connection under the client', () => {
    const bare = onNode24(false);
    expect(bare.node).toMatch(/^v24\./);
    // What Node 24 does without the handler (if a later Node stops doing it, this says so).
    expect(bare.error).toBe('ECONNRESET');
    expect(onNode24(true)).toMatchObject({ status: 431, error: null });
  });
});
