// Bundled into the published SDK (`@yieldrouter/sdk/verify`) like the webhooks package, and held
// to the same rules: web APIs only outside tests and testing helpers (no Node built-ins).
module.exports = require('../webhooks/eslint.config.js');
