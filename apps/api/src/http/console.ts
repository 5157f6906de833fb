import express from 'express';
import type { Router } from 'express';
import { CONSOLE_CSP, consoleStaticDir, uplotDistDir } from '@yieldrouter/console';

/**
 * The owner console at /console: static files (packages/console) and uPlot from node_modules,
 * under a CSP of their own that allows only this origin's scripts and styles. Every other path
 * keeps helmet's policy.
 */
export function consoleRouter(): Router {
  const router = express.Router();
  router.use('/console', (req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    // /console → /console/ so the page's relative URLs resolve the same either way.
    if (req.originalUrl === '/console') {
      res.redirect(301, '/console/');
      return;
    }
    next();
  });
  router.use('/console/vendor', express.static(uplotDistDir, { index: false, maxAge: '1h' }));
  router.use('/console', express.static(consoleStaticDir, { index: 'index.html', maxAge: 0 }));
  return router;
}
