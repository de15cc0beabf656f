export * from './activity-gauge';
export * from './activity-interceptors';
export * from './bounded-executor';
export * from './capacity';
export * from './connection-options';
export * from './cpu-task-pool';
export * from './workflow-bundle';
