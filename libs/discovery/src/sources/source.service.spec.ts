import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { SourceEntity } from './source.entity';
import { SourceRepository } from './source.repository';
import { SourceService } from './source.service';

const dbs = tempDbDir('source-service');
afterAll(() => dbs.cleanup());

async function service(): Promise<SourceService> {
  const databasePath = dbs.file('sources');
  await runMigrations({ databasePath });
  return new SourceService(new SourceRepository(new UnitOfWorkFactory({ databasePath, entities: [SourceEntity] })));
}

/** The status and the exact JSON a client receives for a refused request. */
async function refusal(p: Promise<unknown>): Promise<[number, string]> {
  const err = (await p.then(() => null, (e: unknown) => e)) as { getStatus(): number; getResponse(): unknown } | null;
  if (!err) throw new Error('the request was accepted');
  return [err.getStatus(), JSON.stringify(err.getResponse())];
}

describe('SourceService refusals: 400/409 bodies naming each field (real SQLite file)', () => {
  it('a config its adapter rejects, a changed kind, a duplicate name', async () => {
    const sources = await service();
    const acme = await sources.create({ kind: 'greenhouse', name: 'acme', config: { board_token: 'acme' } });
    expect(await refusal(sources.create({ kind: 'lever', name: 'bad', config: { company: 'acme' } }))).toEqual([
      400,
      `{"statusCode":400,"error":"Bad Request","message":"invalid lever source config: company is not a known field (known: site, company_name, base_url) (got \\"acme\\"); site is required and must be a non-empty path segment (no '/', '?', '#', '%' or whitespace) (got undefined)","errors":[{"field":"config.company","value":"acme","rule":"is not a known field (known: site, company_name, base_url)"},{"field":"config.site","rule":"is required and must be a non-empty path segment (no '/', '?', '#', '%' or whitespace)"}]}`,
    ]);
    expect(await refusal(sources.update(acme.id, { kind: 'lever' }))).toEqual([
      400,
      '{"statusCode":400,"error":"Bad Request","message":"kind = \\"lever\\": cannot change from greenhouse; create a new source instead","errors":[{"field":"kind","value":"lever","rule":"cannot change from greenhouse; create a new source instead"}]}',
    ]);
    expect(await refusal(sources.create({ kind: 'lever', name: 'acme', config: { site: 'acme' } }))).toEqual([
      409,
      '{"statusCode":409,"error":"Conflict","message":"a source named \\"acme\\" already exists","errors":[{"field":"name","value":"acme","rule":"must be unique"}]}',
    ]);
  });

  it('a run asking for an unknown source is a 400, for a disabled one a 409', async () => {
    const sources = await service();
    const off = await sources.create({ kind: 'greenhouse', name: 'off', enabled: false, config: { board_token: 'off' } });
    expect(await refusal(sources.requireRunnable(['nope']))).toEqual([
      400,
      '{"statusCode":400,"error":"Bad Request","message":"unknown source ids: nope","errors":[{"field":"sourceIds","value":"nope","rule":"must be the id of an existing source (GET /v1/sources)"}]}',
    ]);
    expect(await refusal(sources.requireRunnable([off.id]))).toEqual([
      409,
      `{"statusCode":409,"error":"Conflict","message":"disabled sources cannot run: off (${off.id}); enable them with PATCH /v1/sources/:id","errors":[{"field":"sourceIds","value":"${off.id}","rule":"source is disabled"}]}`,
    ]);
  });
});
