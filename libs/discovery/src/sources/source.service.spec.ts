import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { AddressGuard, HostRefusedError } from '@jobctrl/shared/http';
import type { SourceAddressPolicy } from './source-address.rules';
import { SourceEntity } from './source.entity';
import { SourceRepository } from './source.repository';
import { SourceService } from './source.service';

const dbs = tempDbDir('source-service');
afterAll(() => dbs.cleanup());

async function service(policy?: SourceAddressPolicy): Promise<SourceService> {
  const databasePath = dbs.file('sources');
  await runMigrations({ databasePath });
  return new SourceService(new SourceRepository(new UnitOfWorkFactory({ databasePath, entities: [SourceEntity] })), policy);
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

describe('SourceService: where a saved source may point is the crawl’s own rule (#39 item 5)', () => {
  // No outside DNS here: every name resolves to a public address, so only literals decide.
  const policy = (allowedPrivateHosts: string[] = []): SourceAddressPolicy => ({ allowedPrivateHosts, fileSourceDirs: [], resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  const fields = async (p: Promise<unknown>): Promise<string[]> => {
    const err = (await p.then(() => null, (e: unknown) => e)) as { getStatus(): number; getResponse(): { errors: Array<{ field: string }> } } | null;
    if (!err) throw new Error('the request was accepted');
    expect(err.getStatus()).toBe(400);
    return err.getResponse().errors.map((e) => e.field);
  };

  it("refuses each of JobStreaming's base_urls on loopback, not only base_url", async () => {
    const sources = await service(policy());
    const config = { units: [{ query: 'node', board: 'remotive' }], base_urls: { remotive: 'http://127.0.0.1:18081', aggregator: 'http://board.example' } };
    expect(await fields(sources.create({ kind: 'jobstreaming', name: 'js', config }))).toEqual(['config.base_urls.remotive']);
    // Listed in allowed_private_hosts: saved, as the crawl would reach it.
    await expect((await service(policy(['127.0.0.1']))).create({ kind: 'jobstreaming', name: 'js-ok', config })).resolves.toMatchObject({ kind: 'jobstreaming' });
  });

  it.each(['http://[::ffff:0:7f00:1]:8080', 'http://[fec0::1]', 'http://[100::1]', 'http://[64:ff9b:1::a9fe:a9fe]'])('refuses base_url %s at save, as the crawl refuses it', async (url) => {
    const sources = await service(policy());
    expect(await fields(sources.create({ kind: 'greenhouse', name: `gh-${url}`, config: { board_token: 'acme', base_url: url } }))).toEqual(['config.base_url']);
    await expect(new AddressGuard({ allowedPrivateHosts: [] }).check(`${url}/v1/boards/acme/jobs`)).rejects.toBeInstanceOf(HostRefusedError);
  });
});
