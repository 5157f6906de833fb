export * from './prepareStrategyPlan';
export * from './legDocument';
