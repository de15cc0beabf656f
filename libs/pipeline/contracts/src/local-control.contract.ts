/**
 * The worker's local control lane (spec: "The Worker's Capacity Model").
 *
 * Two SDK local-activity slots serve short controls only: workflow start/outcome writes, spend
 * preflight and owner-scoped preparation cancellation. They bypass the remote task queue, so a
 * control never waits behind model work for a remote activity slot. Anything not on this allowlist
 * must run as a remote activity; the worker's interceptor rejects a local execution of any other name.
 */
export const LOCAL_CONTROL_SLOTS = 2;

export const LOCAL_CONTROL_ACTIVITIES = [
  'recordWorkflowLifecycle',
  'checkSpendBudget',
  'cancelPreparation',
] as const;

export type LocalControlActivityName = (typeof LOCAL_CONTROL_ACTIVITIES)[number];

/** Each control attempt: 30 s. Scheduling plus all retries: 3 minutes. */
export const LOCAL_CONTROL_TIMEOUTS = {
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '3 minutes',
} as const;

export function isLocalControlActivity(name: string): name is LocalControlActivityName {
  return (LOCAL_CONTROL_ACTIVITIES as readonly string[]).includes(name);
}
