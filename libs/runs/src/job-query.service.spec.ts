import { ApplicationRepository } from '@jobctrl/apply-launcher/application';
import type { SettingsService } from '@jobctrl/shared/config';
import { UnitOfWork, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { openJobStore, seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import type { TemporalClientService } from '@jobctrl/shared/temporal';
import { JobQueryService } from './job-query.service';
import { JobPreparationService } from './preparation/job-preparation.service';

const dbs = tempDbDir('job-query');
afterAll(() => dbs.cleanup());

/** The app's unit-of-work factory, counting the units it runs (each one a connection and a read or write). */
class CountingUow extends UnitOfWorkFactory {
  units = 0;
  override run<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    this.units += 1;
    return super.run(fn);
  }
}

// No Temporal here: the prepare question then answers "unknown" (prepare off, no reason), as with Temporal down.
const noTemporal = { client: () => Promise.reject(new Error('no Temporal in this test')), taskQueue: 'unused' } as unknown as TemporalClientService;

/** The provider is only read when a preparation starts, which this test never does. */
const noSettings = { get: () => ({}) } as unknown as SettingsService;

describe('JobQueryService.get (GET /v1/jobs/:jobKey)', () => {
  it('reads the application once: the view shows it and the prepare refusal is decided from the same read', async () => {
    const databasePath = dbs.file('detail');
    const { jobs } = await openJobStore(databasePath);
    const uow = new CountingUow({ databasePath, entities: [] });
    for (const jobKey of ['applying', 'plain']) await seedEnrichedJob(jobs, { jobKey, title: 'Engineer', company: 'Acme', description: 'Build things.' });
    await new ApplicationRepository(uow).claim('local', 'applying', 'run-1', { workflowId: 'apply-local-applying', dryRun: false });
    const service = new JobQueryService(uow, new JobPreparationService(uow, noTemporal, noSettings));

    uow.units = 0;
    const applying = await service.get('applying');
    expect(applying.application).toMatchObject({ state: 'running' });
    expect(applying.actions).toEqual({ prepare: false, prepareRefusal: { code: 'application_in_progress', message: expect.stringContaining('(application running)') } });
    // The job, its approval, its application: three units (four while actionsOf read the application again).
    expect(uow.units).toBe(3);

    uow.units = 0;
    const plain = await service.get('plain');
    expect(plain.application).toBeNull();
    expect(plain.actions).toEqual({ prepare: false, prepareRefusal: null });
    expect(uow.units).toBe(3);
  });
});
