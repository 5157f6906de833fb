import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser } from 'puppeteer-core';
import { runAgent } from './agent';
import { startDemoStack } from './demoStack';
import type { DemoStack } from './demoStack';

// The owner console in a real headless browser (Debian's chromium) against the stack
// `pnpm demo --keep` runs, after the demo's agent has been through the flow. Fails (never
// skips) when chromium is missing: `.ci/run` installs it.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, '..', 'artifacts');

jest.setTimeout(180_000);

let stack: DemoStack;
let browser: Browser;
let wallet: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  stack = await startDemoStack({ databaseUrl: undefined, stdio: 'ignore' });
  wallet = await runAgent(stack, () => undefined);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  const report = await stack?.verify();
  expect(report?.lines).toEqual([expect.stringContaining('clean')]);
});

it('shows the seeded opportunities with a chart, then the wallet after a key is pasted', async () => {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1400 });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn') {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
  page.on('requestfailed', (request) => problems.push(`requestfailed: ${request.url()}`));
  page.on('response', (answer) => {
    if (answer.status() >= 400) problems.push(`${answer.status()}: ${answer.url()}`);
  });

  const response = await page.goto(`${stack.baseUrl}/console`, { waitUntil: 'networkidle0' });
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

  // Opportunities with live APY from the refresh path, and the 30-day chart drawn by uPlot.
  await page.waitForSelector('#opportunities tbody tr');
  const table = await page.$eval('#opportunities tbody', (node) => node.textContent ?? '');
  expect(table).toContain('morpho');
  expect(table).toContain('defillama');
  expect(table).toMatch(/\d+\.\d\d%/);
  await page.waitForSelector('#apy-chart canvas');
  const points = await page.$eval('#apy-chart', (node) =>
    Number((node as HTMLElement).dataset['points']),
  );
  expect(points).toBeGreaterThanOrEqual(25);

  // The key is held in memory only: nothing in storage after it is used.
  await page.type('#api-key', stack.ownerKey);
  await page.type('#wallet', wallet);
  await page.click('#key-form button');
  await page.waitForSelector(`#wallet-section[data-loaded="${wallet}"]`);
  const section = await page.$eval('#wallet-section', (node) => node.textContent ?? '');
  expect(section).toContain('deposit');
  expect(section).toContain('withdraw');
  expect(section).toContain('confirmed');
  expect(section).toMatch(/gross 1\.99\d+, fee 0\.0\d+ \+ 0, net 1\.9/);
  expect(section).toContain('Realized yield 1.9 USDC');
  const stored = await page.evaluate(
    () => window.localStorage.length + window.sessionStorage.length + document.cookie.length,
  );
  expect(stored).toBe(0);
  expect(await page.$eval('#api-key', (node) => (node as HTMLInputElement).value)).toBe('');

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'console.png'), fullPage: true });
  expect(problems).toEqual([]);
});
