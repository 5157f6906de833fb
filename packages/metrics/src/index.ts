export * from './observers';
export * from './registry';
export * from './httpMetrics';
export * from './keeperMetrics';
export * from './opsHealthMetrics';
