import { readFileSync } from 'node:fs';
import path from 'node:path';
import { consoleStaticDir } from '@yieldrouter/console';
import { NO_VENUE_READY_HINT } from '@yieldrouter/engine';

// /console shows the line `pnpm start` logs when no venue is ready: the same text, in its
// setup-hint note (the console is static files with no build step, so the text is a copy).
it('the console carries the engine’s no-venue-ready line and a place to show it', () => {
  const app = readFileSync(path.join(consoleStaticDir, 'app.js'), 'utf8');
  expect(app).toContain(`'${NO_VENUE_READY_HINT}'`);
  expect(app).toMatch(/\$\('setup-hint'\)\.hidden = anyReady/);
  expect(readFileSync(path.join(consoleStaticDir, 'index.html'), 'utf8')).toContain(
    'id="setup-hint"',
  );
});
