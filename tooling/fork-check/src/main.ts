import { forkCheck } from './forkCheck';

// `pnpm fork:check`: opt-in, needs BASE_RPC_URL and/or ARBITRUM_RPC_URL (never run in CI).
forkCheck(process.env, (line) => process.stdout.write(`${line}\n`)).then(
  (report) => process.exit(report.ok ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(`fork check: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
