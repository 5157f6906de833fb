import { deployYieldRouter, startSolanaBed } from '@yieldrouter/chain-beds/solana';
import { faultsSettings } from './faultsSettings';
import type { ScenarioKey } from './faultsSettings';
import { formatReport } from './formatReport';
import type { Scenario, ScenarioResult } from './scenario';
import { apiCrashScenario } from './scenarios/apiCrash';
import { databaseDropsScenario } from './scenarios/databaseDrops';
import { horizontalScaleScenario } from './scenarios/horizontalScale';
import { keeperCrashScenario } from './scenarios/keeperCrash';
import { redisRestartScenario } from './scenarios/redisRestart';
import { sigtermScenario } from './scenarios/sigterm';
import { webhookReceiversScenario } from './scenarios/webhookReceivers';

// `pnpm test:faults`: each scenario on a deployment of its own (database, redis-server, API and
// keeper processes), one after the other; a table at the end; exit 1 when any scenario fails.

const SCENARIOS: Readonly<Record<ScenarioKey, Scenario>> = {
  'api-crash': apiCrashScenario,
  'redis-restart': redisRestartScenario,
  'database-drops': databaseDropsScenario,
  sigterm: sigtermScenario,
  'keeper-crash': keeperCrashScenario,
  'webhook-receivers': webhookReceiversScenario,
  'horizontal-scale': horizontalScaleScenario,
};

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const settings = faultsSettings();
  const started = Date.now();
  const solana = await startSolanaBed();
  const rows: Array<{ scenario: Scenario; result: ScenarioResult }> = [];
  try {
    const router = deployYieldRouter(solana);
    for (const key of settings.only) {
      const scenario = SCENARIOS[key];
      log(`== ${scenario.name}`);
      const at = Date.now();
      const result = await scenario
        .run({ solana, router, log })
        .catch((error: unknown): ScenarioResult => ({
          fault: scenario.name,
          load: '-',
          accepted: 0,
          effects: 0,
          lost: 0,
          doubled: 0,
          settled: null,
          delivered: null,
          ms: Date.now() - at,
          problems: [
            `did not run to the end: ${error instanceof Error ? error.message : String(error)}`,
          ],
          notes: [],
        }));
      rows.push({ scenario, result });
      log(
        `   ${result.problems.length === 0 ? 'pass' : 'FAIL'} in ${(result.ms / 1000).toFixed(1)} s`,
      );
      for (const problem of result.problems) log(`   - ${problem.slice(0, 2000)}`);
    }
  } finally {
    await solana.stop();
  }
  log('');
  log(formatReport(rows, Date.now() - started));
  return rows.some(({ result }) => result.problems.length > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `fault suite failed: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  },
);
