import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import { runAgent } from './agent';
import { startDemoStack } from './demoStack';
import type { DemoStack } from './demoStack';

// The owner console in a real headless browser (Debian's chromium) against the stack
// `pnpm demo --keep` runs, after the demo's agent has been through the flow (webhooks to the
// demo's local receiver included), with the owner key and then the demo's agent key. Fails
// (never skips) when chromium is missing: `.ci/run` installs it.
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
  mkdirSync(ARTIFACTS, { recursive: true });
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

/** A fresh page with every console error or warning, page error and failed or 4xx/5xx request. */
async function openConsole(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1400 });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn') {
      problems.push(`${message.type()}: ${message.text()} (${message.location().url ?? ''})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
  page.on('requestfailed', (request) => problems.push(`requestfailed: ${request.url()}`));
  page.on('response', (answer) => {
    if (answer.status() >= 400) problems.push(`${answer.status()}: ${answer.url()}`);
  });
  const response = await page.goto(`${stack.baseUrl}/console`, { waitUntil: 'networkidle0' });
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  return { page, problems };
}

async function loadWallet(page: Page, key: string): Promise<string> {
  await page.type('#api-key', key);
  await page.type('#wallet', wallet);
  await page.click('#key-form button');
  await page.waitForSelector(`#wallet-section[data-loaded="${wallet}"]`);
  return page.$eval('#wallet-section', (node) => node.textContent ?? '');
}

const text = (page: Page, selector: string) =>
  page.$eval(selector, (node) => node.textContent ?? '');
const isHidden = (page: Page, selector: string) =>
  page.$eval(selector, (node) => (node as HTMLElement).hidden);
const panelState = (page: Page) =>
  page.$eval('#webhooks-panel', (node) => (node as HTMLElement).dataset['state']);

it('shows the seeded opportunities with a chart, then the wallet after a key is pasted', async () => {
  const { page, problems } = await openConsole();

  // Opportunities with live APY from the refresh path, and the 30-day chart drawn by uPlot.
  await page.waitForSelector('#opportunities tbody tr');
  const table = await text(page, '#opportunities tbody');
  expect(table).toContain('morpho');
  expect(table).toContain('defillama');
  expect(table).toMatch(/\d+\.\d\d%/);
  await page.waitForSelector('#apy-chart canvas');
  const points = await page.$eval('#apy-chart', (node) =>
    Number((node as HTMLElement).dataset['points']),
  );
  expect(points).toBeGreaterThanOrEqual(25);

  // The key is held in memory only: nothing in storage after it is used.
  const section = await loadWallet(page, stack.ownerKey);
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

  // The owner's subscription (the demo's receiver) and its deliveries, each answered 204.
  expect(await panelState(page)).toBe('loaded');
  expect(await text(page, '#webhooks tbody')).toContain(stack.webhookReceiver.url);
  expect(await isHidden(page, '#webhooks-note')).toBe(true);
  const deliveries = await page.$$eval('#deliveries tr', (rows) =>
    rows.map((tr) => Array.from(tr.cells, (cell) => cell.textContent ?? '')),
  );
  const byType = new Map(deliveries.map((cells) => [cells[0], cells]));
  for (const type of ['deposit.settled', 'harvest.completed', 'withdraw.settled']) {
    expect(byType.get(type)).toEqual([
      type,
      expect.stringMatching(/^\d{4}-\d\d-\d\d /),
      'delivered',
      '1',
      expect.stringMatching(/^HTTP 204 in \d+ ms$/),
      expect.stringMatching(/^\d{4}-\d\d-\d\d /),
    ]);
  }
  expect(await text(page, '#deliveries h4')).toBe(
    `${await page.$eval('#webhooks tbody td', (td) => td.textContent)} → ${stack.webhookReceiver.url}`,
  );

  await page.screenshot({ path: path.join(ARTIFACTS, 'console.png'), fullPage: true });
  expect(problems).toEqual([]);
});

it('shows the wallet with an agent key; the webhook panel says subscriptions need an owner key', async () => {
  const { page, problems } = await openConsole();
  const section = await loadWallet(page, stack.agentKey);
  expect(section).toContain('deposit');
  expect(section).toContain('withdraw');
  expect(section).toMatch(/gross 1\.99\d+, fee 0\.0\d+ \+ 0, net 1\.9/);
  expect(section).toContain('Realized yield 1.9 USDC');
  expect(await text(page, '#status')).toBe(`Loaded ${wallet}.`);

  expect(await panelState(page)).toBe('owner-only');
  expect(await isHidden(page, '#webhooks-note')).toBe(false);
  expect(await text(page, '#webhooks-note')).toContain('Webhook subscriptions need an owner key');
  expect(await isHidden(page, '#webhooks')).toBe(true);
  // An agent key sees its wallet's deliveries by subscription id (no URL).
  expect(await text(page, '#deliveries h4')).toMatch(/^whk_[0-9a-f]{32}$/);
  expect(await text(page, '#deliveries')).toContain('harvest.completed');

  await page.screenshot({ path: path.join(ARTIFACTS, 'console-agent.png'), fullPage: true });
  // The one refusal is the owner-only route the panel tries (the API has no "who am I" route to
  // ask first); Chrome logs it as a failed resource. Nothing else may fail or log.
  const webhooksUrl = `${stack.baseUrl}/api/v1/svc/webhooks`;
  expect(
    problems.filter((line) => !line.endsWith(webhooksUrl) && !line.endsWith(`(${webhooksUrl})`)),
  ).toEqual([]);
  expect(problems).toContain(`403: ${webhooksUrl}`);
});
