module.exports = require('@yieldrouter/eslint-config');
