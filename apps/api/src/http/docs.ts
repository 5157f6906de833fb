import express from 'express';
import type { Router } from 'express';
import path from 'node:path';

const page = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Yield Router API v1 — docs</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js" data-spec="${specUrl}"></script>
</body>
</html>`;

const init = `window.ui = SwaggerUIBundle({
  url: document.currentScript.dataset.spec,
  dom_id: '#swagger-ui',
  deepLinking: true,
});`;

// Resolved from the package folder: the package's index would load the whole UI bundle at start.
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** Swagger UI served from the installed swagger-ui-dist (no CDN), rendering our document. */
export function docsRouter(specUrl: string): Router {
  const router = express.Router();
  const html = page(specUrl);
  router.get('/docs', (_req, res) => {
    res.type('html').send(html);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(init);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1h' }));
  return router;
}
