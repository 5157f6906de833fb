export * from './autopilotDecisions';
export * from './autopilotGuardrails';
export * from './autopilotHistory';
export * from './autopilotPeriod';
export * from './autopilotPolicy';
export * from './autopilotRecords';
export * from './decideAutopilot';
export * from './tickDueAutopilots';
