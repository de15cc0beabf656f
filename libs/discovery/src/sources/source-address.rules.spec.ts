import * as fs from 'node:fs';
import * as path from 'node:path';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { FileSourceAdapter } from '../adapters/file.adapter';
import { FileSourceRefusedError, readFileSourceInside, resolveFileSourcePath, type SourceAddressPolicy } from './source-address.rules';
import { SourceEntity } from './source.entity';
import { SourceRepository } from './source.repository';
import { SourceService } from './source.service';

const dbs = tempDbDir('source-address');
afterAll(() => dbs.cleanup());

/** No outside DNS here: names resolve as this table says. */
const DNS: Record<string, string> = { localhost: '127.0.0.1', 'board.lan': '10.0.0.7', 'jobs.example': '93.184.216.34' };
const resolve = async (host: string) => (DNS[host] ? [{ address: DNS[host], family: 4 }] : Promise.reject(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' })));

async function service(policy: Partial<SourceAddressPolicy> = {}): Promise<SourceService> {
  const databasePath = dbs.file('sources');
  await runMigrations({ databasePath });
  return new SourceService(new SourceRepository(new UnitOfWorkFactory({ databasePath, entities: [SourceEntity] })), {
    allowedPrivateHosts: [],
    fileSourceDirs: [],
    resolve,
    ...policy,
  });
}

async function refusal(p: Promise<unknown>): Promise<{ status: number; errors: Array<{ field: string; value: unknown; rule: string }> }> {
  const err = (await p.then(() => null, (e: unknown) => e)) as { getStatus(): number; getResponse(): { errors: [] } } | null;
  if (!err) throw new Error('the request was accepted');
  return { status: err.getStatus(), errors: err.getResponse().errors };
}

describe('a source base_url on a private host (#15)', () => {
  it.each([
    ['http://127.0.0.1:4010', '127.0.0.1'],
    ['http://[::1]:4010', '::1'],
    ['http://[::ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://169.254.169.254/latest', '169.254.169.254'],
    ['http://board.lan/api', '10.0.0.7'],
    ['http://metadata.google.internal/', 'metadata.google.internal'],
  ])('%s is a 400 naming config.base_url, its value and the rule', async (baseUrl, address) => {
    const sources = await service();
    const { status, errors } = await refusal(sources.create({ kind: 'greenhouse', name: `g ${baseUrl}`, config: { board_token: 'acme', base_url: baseUrl } }));
    expect(status).toBe(400);
    expect(errors).toEqual([{ field: 'config.base_url', value: baseUrl, rule: expect.stringContaining('allowed_private_hosts') }]);
    expect(errors[0].rule).toContain(address);
  });

  it('passes for a listed host or a public one, on create and on update (PUT) alike', async () => {
    const sources = await service({ allowedPrivateHosts: ['127.0.0.1', 'board.lan'] });
    const local = await sources.create({ kind: 'lever', name: 'local', config: { site: 'globex', base_url: 'http://127.0.0.1:4010' } });
    await sources.create({ kind: 'lever', name: 'lan', config: { site: 'globex', base_url: 'http://board.lan' } });
    await sources.create({ kind: 'lever', name: 'public', config: { site: 'globex', base_url: 'https://jobs.example' } });
    // localhost is not 127.0.0.1: exactly the listed host passes.
    const { errors } = await refusal(sources.update(local.id, { config: { site: 'globex', base_url: 'http://localhost:4010' } }));
    expect(errors.map((e) => e.field)).toEqual(['config.base_url']);
  });
});

describe('file sources only inside file_source_dirs (#15)', () => {
  const root = dbs.file('roots');
  const imports = path.join(root, 'imports');
  const outside = path.join(root, 'outside');
  beforeAll(() => {
    fs.mkdirSync(path.join(imports, 'sub'), { recursive: true });
    fs.mkdirSync(outside, { recursive: true });
    const postings = JSON.stringify([{ url: 'https://jobs.example/1', title: 'Dev', company: 'Acme' }]);
    fs.writeFileSync(path.join(imports, 'jobs.json'), postings);
    fs.writeFileSync(path.join(imports, 'sub', 'jobs.json'), postings);
    fs.writeFileSync(path.join(outside, 'secret.json'), '[{"url":"https://x.example","title":"secret","company":"x"}]');
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(imports, 'link-out.json'));
    fs.symlinkSync(outside, path.join(imports, 'dir-out'));
    fs.symlinkSync(path.join(imports, 'jobs.json'), path.join(imports, 'link-in.json'));
  });

  it.each([
    ['../outside/secret.json', 'a relative ..'],
    [path.join(outside, 'secret.json'), 'an absolute path elsewhere'],
    ['/etc/passwd', 'a system file'],
    ['link-out.json', 'a symlink pointing out'],
    ['dir-out/secret.json', 'a symlinked folder pointing out'],
    ['missing.json', 'a file that does not exist'],
  ])('%s (%s) is a 400 on config.path', async (file) => {
    const sources = await service({ fileSourceDirs: [imports] });
    const { status, errors } = await refusal(sources.create({ kind: 'file', name: `f ${file}`, config: { path: file, format: 'json' } }));
    expect(status).toBe(400);
    expect(errors).toEqual([{ field: 'config.path', value: file, rule: expect.stringContaining('inside file_source_dirs') }]);
  });

  it('a file inside (relative to the first dir, absolute, or a link that stays inside) is accepted and read', async () => {
    const sources = await service({ fileSourceDirs: [imports] });
    for (const file of ['jobs.json', 'sub/jobs.json', path.join(imports, 'jobs.json'), 'link-in.json']) {
      await sources.create({ kind: 'file', name: `ok ${file}`, config: { path: file } });
    }
    const adapter = new FileSourceAdapter();
    const read = [];
    for await (const posting of adapter.discover(adapter.validateConfig({ path: 'sub/jobs.json' }), { http: undefined as never, fileSourceDirs: [imports] })) read.push(posting.title);
    expect(read).toEqual(['Dev']);
  });

  it('is checked again at read time: a file or folder swapped for a link out after it was saved is not read', async () => {
    const swapped = path.join(root, 'swap');
    fs.mkdirSync(path.join(swapped, 'dir'), { recursive: true });
    fs.writeFileSync(path.join(swapped, 'file.json'), '[]');
    fs.writeFileSync(path.join(swapped, 'dir', 'jobs.json'), '[]');
    await expect(resolveFileSourcePath('file.json', [swapped])).resolves.toBe(path.join(fs.realpathSync(swapped), 'file.json'));
    fs.rmSync(path.join(swapped, 'file.json'));
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(swapped, 'file.json'));
    fs.rmSync(path.join(swapped, 'dir'), { recursive: true });
    fs.symlinkSync(outside, path.join(swapped, 'dir'));
    fs.copyFileSync(path.join(outside, 'secret.json'), path.join(outside, 'jobs.json'));
    await expect(readFileSourceInside('file.json', [swapped])).rejects.toBeInstanceOf(FileSourceRefusedError);
    await expect(readFileSourceInside('dir/jobs.json', [swapped])).rejects.toBeInstanceOf(FileSourceRefusedError);
    const adapter = new FileSourceAdapter();
    const drained = (async () => {
      for await (const _ of adapter.discover(adapter.validateConfig({ path: 'file.json' }), { http: undefined as never, fileSourceDirs: [swapped] })) void _;
    })();
    await expect(drained).rejects.toMatchObject({ code: 'file_source_outside_dirs' });
  });

  it('no file_source_dirs: nothing is read', async () => {
    await expect(readFileSourceInside(path.join(imports, 'jobs.json'), [])).rejects.toThrow(/no file_source_dirs configured/);
  });
});
