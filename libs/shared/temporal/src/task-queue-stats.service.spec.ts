import { TaskQueueStatsService } from './task-queue-stats.service';
import type { TemporalClientService } from './temporal-client.service';

type Describe = () => Promise<unknown>;

function serviceWith(describe: { current: Describe }) {
  const fake = {
    namespace: 'default',
    rawConnection: async () => ({
      withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn(),
      workflowService: { describeTaskQueue: () => describe.current() },
    }),
  } as unknown as TemporalClientService;
  return new TaskQueueStatsService(fake);
}

const answer = async () => ({
  pollers: [{ identity: 'w1' }, { identity: 'w2' }],
  stats: { approximateBacklogCount: 7, approximateBacklogAge: { seconds: 3, nanos: 500_000_000 }, tasksAddRate: 1.5, tasksDispatchRate: 2 },
});

describe('TaskQueueStatsService', () => {
  afterEach(() => jest.restoreAllMocks());

  it('maps DescribeTaskQueue stats for both queue types', async () => {
    const stats = await serviceWith({ current: answer }).describe('q');
    expect(stats.activity).toMatchObject({ status: 'ok', pollers: 2, pollerIdentities: ['w1', 'w2'], backlogCount: 7, backlogAgeSeconds: 3.5, addRatePerSecond: 1.5, dispatchRatePerSecond: 2 });
    expect(stats.workflow.status).toBe('ok');
  });

  it('keeps a recent answer as stale when Temporal stops answering, then reports unavailable with nulls (never 0)', async () => {
    const describe = { current: answer as Describe };
    const service = serviceWith(describe);
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    await service.describe('q');
    describe.current = async () => Promise.reject(new Error('14 UNAVAILABLE: connection refused'));
    now += 60_000;
    const stale = await service.describe('q');
    expect(stale.activity).toMatchObject({ status: 'stale', backlogCount: 7 });
    expect(stale.activity.reason).toContain('connection refused');
    now += 10 * 60_000;
    const gone = await service.describe('q');
    expect(gone.activity).toMatchObject({ status: 'unavailable', pollers: null, backlogCount: null, addRatePerSecond: null });
  });

  it('reports unsupported when the server does not implement the call or returns no stats', async () => {
    const unimplemented = Object.assign(new Error('12 UNIMPLEMENTED'), { code: 12 });
    expect((await serviceWith({ current: async () => Promise.reject(unimplemented) }).describe('q')).activity.status).toBe('unsupported');
    const noStats = await serviceWith({ current: async () => ({ pollers: [] }) }).describe('q');
    expect(noStats.activity).toMatchObject({ status: 'unsupported', pollers: 0, backlogCount: null });
  });
});
