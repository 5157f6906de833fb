export * from './prepareStrategyPlan';
