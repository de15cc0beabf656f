export * from './error-codes.contract';
export * from './lifecycle.contract';
export * from './local-control.contract';
export * from './smoke.contract';
export * from './telemetry.contract';
export * from './discovery.contract';
export * from './preparation.contract';
export * from './pipeline.contract';
