import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A newcomer on a fresh clone: `pnpm start` on the embedded defaults (a fresh data directory),
// the first owner key it prints, then every `curl` of the README run as written (with the port
// the service got): discovery says what takes deposits and why not, a deposit plan agrees, and
// the key reads a wallet's position.

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..', '..');
const run = promisify(execFile);

/** Every `curl …` command of a markdown file: in code blocks (continuations joined) or inline. */
export function curlExamples(markdown: string): string[] {
  const commands: string[] = [];
  for (const block of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = (block[1] ?? '').replace(/\\\n\s*/g, '').split('\n');
    for (const line of lines) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command.startsWith('curl ')) commands.push(command);
    }
  }
  for (const inline of markdown.matchAll(/`(curl [^`]+)`/g)) commands.push(inline[1] ?? '');
  return commands;
}

function startService(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(ROOT, 'tooling/start'),
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATABASE_URL: '',
      SVC_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SVC_KEEPER_PREFIX: `svc:test:${randomBytes(6).toString('hex')}:keeper`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /"port":(\d+)[^\n]*"api listening"/.exec(output);
      if (listening) resolve(Number(listening[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`pnpm start exited with ${code}:\n${output}`)));
  });
  const stopped = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, ready, stopped, output: () => output };
}

let dataDir: string;
let service: ReturnType<typeof startService>;
let port: number;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'svc-newcomer-'));
  service = startService(dataDir);
  port = await service.ready;
});
afterAll(async () => {
  service.child.kill('SIGTERM');
  await service.stopped;
  rmSync(dataDir, { recursive: true, force: true });
});

it('finds the README examples: status, discovery, a deposit plan, a position', () => {
  const commands = curlExamples(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  for (const path of ['svc/status', 'svc/opportunities', 'deposit/plan', '/position']) {
    expect(commands.filter((command) => command.includes(path))).toHaveLength(1);
  }
});

it('a fresh start prints an owner key once, and every README and getting-started curl works', async () => {
  const key = /^ {2}(\S+)$/m.exec(service.output().split('First start on the embedded')[1] ?? '');
  expect(key?.[1]).toMatch(/^\S{20,}$/);
  const answers: { command: string; status: number; body: unknown }[] = [];
  // The README's, then docs/getting-started.md's (the same first steps, in more words).
  const documents = ['README.md', 'docs/getting-started.md'];
  const commands = documents.flatMap((file) =>
    curlExamples(readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(commands.length).toBeGreaterThan(4);
  for (const command of commands) {
    const local = command.replaceAll('localhost:3000', `127.0.0.1:${port}`);
    const { stdout } = await run('sh', ['-c', `${local} -sS -w '\\n%{http_code}'`], {
      env: { ...process.env, KEY: key?.[1] ?? '' },
    });
    const lines = stdout.trimEnd().split('\n');
    const status = Number(lines.pop());
    answers.push({ command, status, body: JSON.parse(lines.join('\n')) as unknown });
  }
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
  const bodyOf = (path: string) => answers.find((answer) => answer.command.includes(path))?.body;
  const opportunities = bodyOf('svc/opportunities') as {
    opportunities: { depositable: boolean; depositBlockedReason: string }[];
  };
  const plan = bodyOf('deposit/plan') as {
    status: string;
    blockers: { code: string; field?: string }[];
  };
  const position = bodyOf('/position') as { liquidMicros: string };
  // Discovery: nothing takes deposits on the defaults, and each row says which setting would.
  expect(opportunities.opportunities.length).toBeGreaterThan(0);
  for (const row of opportunities.opportunities) {
    expect(row.depositable).toBe(false);
    expect(row.depositBlockedReason).toMatch(/SVC_VENUE_IDS|listed in the catalog/);
  }
  // The plan agrees and names the same setting.
  expect(plan.status).toBe('blocked');
  expect(plan.blockers).toContainEqual(
    expect.objectContaining({ code: 'venue_not_configured', field: 'SVC_VENUE_IDS.morpho' }),
  );
  expect(position.liquidMicros).toBe('0');
});
