export * from './checkGuardrails';
export * from './guardrailBlockers';
export * from './guardrailsDocument';
export * from './readGuardrails';
