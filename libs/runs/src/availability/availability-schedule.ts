import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import { AVAILABILITY_SWEEP_WORKFLOW_TYPE, availabilitySweepScheduleId, availabilitySweepWorkflowId } from '@jobctrl/pipeline/contracts';

export interface AvailabilityScheduleOptions {
  client: Client;
  taskQueue: string;
  /** availability_sweeps_enabled, read live. */
  enabled: () => boolean;
  log: (message: string) => void;
}

/**
 * The Temporal Schedule that starts an availability sweep every minute. Created idempotently at
 * worker start (a second worker, or a restart, finds it there); `sync()` keeps its paused state equal
 * to availability_sweeps_enabled, so a PATCH /v1/settings pauses or resumes it without a restart.
 * Overlap SKIP: a sweep still running when the next minute comes is not doubled (the budget's
 * one-sweep-a-minute admission would refuse it anyway). The sweep's own admission also reads the
 * setting, so a sweep the schedule started just before a pause checks nothing.
 */
export class AvailabilitySchedule {
  private timer: NodeJS.Timeout | undefined;
  private paused: boolean | undefined;
  private created = false;

  constructor(private readonly o: AvailabilityScheduleOptions) {}

  get scheduleId(): string {
    return availabilitySweepScheduleId(this.o.taskQueue);
  }

  /**
   * Creates the schedule if it does not exist and applies the setting; then follows the setting. A
   * failure is logged, not fatal (the worker's other work does not depend on it): the next tick tries again.
   */
  async start(syncEveryMs = 15_000): Promise<void> {
    const tick = () => (this.created ? this.sync() : this.ensure()).catch((err: unknown) => this.o.log(`availability schedule: ${(err as Error).message}`));
    await tick();
    this.timer = setInterval(() => void tick(), syncEveryMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async ensure(): Promise<void> {
    const paused = !this.o.enabled();
    try {
      await this.o.client.schedule.create({
        scheduleId: this.scheduleId,
        spec: { intervals: [{ every: '1 minute' }] },
        action: { type: 'startWorkflow', workflowType: AVAILABILITY_SWEEP_WORKFLOW_TYPE, taskQueue: this.o.taskQueue, workflowId: availabilitySweepWorkflowId(this.o.taskQueue), args: [] },
        policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
        state: { paused, note: paused ? 'availability_sweeps_enabled is false' : 'availability sweeps every minute' },
      });
      this.paused = paused;
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      this.paused = undefined; // unknown: sync reads it
    }
    this.created = true;
    await this.sync();
  }

  /** Pauses or resumes the schedule to match the setting; no call when it already matches. */
  async sync(): Promise<void> {
    const paused = !this.o.enabled();
    const handle = this.o.client.schedule.getHandle(this.scheduleId);
    if (this.paused === undefined) this.paused = (await handle.describe()).state.paused;
    if (this.paused === paused) return;
    if (paused) await handle.pause('availability_sweeps_enabled is false');
    else await handle.unpause('availability_sweeps_enabled is true');
    this.paused = paused;
    this.o.log(`availability sweeps ${paused ? 'paused' : 'resumed'} (availability_sweeps_enabled)`);
  }
}
