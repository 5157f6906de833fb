export * from './prepareStrategyPlan';
export * from './legDocument';
export * from './planDocument';
export * from './storedPlanDocument';
export * from './readPlan';
export * from './executePlanLeg';
export * from './planOfAlias';
