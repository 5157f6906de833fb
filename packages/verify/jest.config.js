/** @type {import('jest').Config} */
module.exports = { ...require('@yieldrouter/jest-preset') };
