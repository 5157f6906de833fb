export * from './prepareStrategyPlan';
export * from './legDocument';
export * from './storedPlanDocument';
export * from './readPlan';
export * from './executePlanLeg';
