import path from 'node:path';

/** The console's own files (HTML, CSS, ES modules), served as they are: no build step. */
export const consoleStaticDir = path.join(__dirname, '..', 'static');

/** uPlot's dist folder (the ES module and its stylesheet), served from node_modules: no CDN. */
export const uplotDistDir = path.dirname(require.resolve('uplot/dist/uPlot.esm.js'));

/**
 * The console's Content-Security-Policy: scripts, styles and API calls from this origin only;
 * no inline script or style, no plugins, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
