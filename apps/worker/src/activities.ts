import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { ActivityGauge, WorkerExecutors } from '@jobctrl/shared/temporal';
import { createLifecycleActivities, createSmokeActivities, LifecycleProjector } from '@jobctrl/operations';

export interface ActivityDeps {
  uow: UnitOfWorkFactory;
  executors: WorkerExecutors;
  gauge: ActivityGauge;
  workerIdentity: string;
}

/** Merges every lib's activity factory into the one activities object the Worker registers. */
export function buildActivities(deps: ActivityDeps) {
  return {
    ...createLifecycleActivities({ uow: deps.uow, executor: deps.executors.temporalSync, projector: new LifecycleProjector(deps.uow) }),
    ...createSmokeActivities({ uow: deps.uow, gauge: deps.gauge, workerIdentity: deps.workerIdentity }),
  };
}
