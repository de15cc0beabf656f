// GET /v1/sources/kinds (#13: the Sources form per kind is built from the adapters' own config rules),
// against the real API app on a fresh SQLite file.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { loadConfig } from '@jobctrl/shared/config';
import { createApi } from './bootstrap';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}

interface Field {
  name: string;
  type: string;
  required: boolean;
  description: string;
  default?: unknown;
  options?: string[];
  fields?: Field[];
}

/** What each kind must publish: name, type, required, and default or options where there is one. */
const shape = (f: Field): unknown => ({
  name: f.name,
  type: f.type,
  required: f.required,
  ...(f.default !== undefined ? { default: f.default } : {}),
  ...(f.options ? { options: f.options } : {}),
  ...(f.fields ? { fields: f.fields.map(shape) } : {}),
});
const board = (token: string, baseUrl: string) => [
  { name: token, type: 'string', required: true },
  { name: 'company_name', type: 'string', required: false },
  { name: 'base_url', type: 'url', required: false, default: baseUrl },
];
const search = (baseUrl: string) => [
  { name: 'search', type: 'string', required: false },
  { name: 'base_url', type: 'url', required: false, default: baseUrl },
];
const BOARDS = ['remotive', 'remoteok', 'arbeitnow', 'aggregator'];
const EXPECTED: Record<string, unknown[]> = {
  greenhouse: board('board_token', 'https://boards-api.greenhouse.io'),
  lever: board('site', 'https://api.lever.co'),
  ashby: board('board', 'https://api.ashbyhq.com'),
  smartrecruiters: board('company_id', 'https://api.smartrecruiters.com'),
  workable: board('account', 'https://apply.workable.com'),
  remotive: search('https://remotive.com'),
  remoteok: search('https://remoteok.com'),
  arbeitnow: search('https://www.arbeitnow.com'),
  file: [
    { name: 'path', type: 'string', required: true },
    { name: 'format', type: 'enum', required: false, options: ['json', 'csv'] },
  ],
  jobstreaming: [
    {
      name: 'units',
      type: 'object[]',
      required: true,
      fields: [
        { name: 'query', type: 'string', required: true },
        { name: 'location', type: 'string', required: false },
        { name: 'board', type: 'enum', required: true, options: BOARDS },
      ],
    },
    { name: 'base_url', type: 'url', required: false },
    { name: 'base_urls', type: 'object', required: false, fields: BOARDS.map((name) => ({ name, type: 'url', required: false })) },
  ],
};

/** A value for a field, from its published rules only (what a generated form would send). */
function sample(f: Field): unknown {
  if (f.type === 'url') return 'http://127.0.0.1:9';
  if (f.type === 'enum') return f.options?.[0];
  if (f.type === 'object') return Object.fromEntries((f.fields ?? []).map((x) => [x.name, sample(x)]));
  if (f.type === 'object[]') return [Object.fromEntries((f.fields ?? []).map((x) => [x.name, sample(x)]))];
  return f.name === 'path' ? 'postings.json' : 'typescript';
}

describe('GET /v1/sources/kinds', () => {
  let dir: string;
  let app: INestApplication;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-kinds-'));
    const configPath = path.join(dir, 'config.json');
    fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0 }));
    app = await createApi(loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: temporalAddress } }), { logger: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const http = () => request(app.getHttpServer());

  it('publishes every kind with its label, description and fields (types, required, defaults, options), each described', async () => {
    const { body } = await http().get('/v1/sources/kinds').expect(200);
    expect(body.kinds.map((k: { kind: string }) => k.kind)).toEqual(Object.keys(EXPECTED));
    for (const k of body.kinds as Array<{ kind: string; label: string; description: string; fields: Field[] }>) {
      expect({ kind: k.kind, fields: k.fields.map(shape) }).toEqual({ kind: k.kind, fields: EXPECTED[k.kind] });
      expect(k.label).toEqual(expect.any(String));
      expect(k.description.length).toBeGreaterThan(10);
      for (const f of k.fields.flatMap((x) => [x, ...(x.fields ?? [])])) expect(f.description.length).toBeGreaterThan(5);
    }
  });

  it('a field published as required is refused with a 400 naming it when POST /v1/sources leaves it out, and nothing is saved', async () => {
    const { body } = await http().get('/v1/sources/kinds').expect(200);
    let checked = 0;
    const refusedNames: string[] = [];
    for (const k of body.kinds as Array<{ kind: string; fields: Field[] }>) {
      const full: Record<string, unknown> = Object.fromEntries(k.fields.map((f) => [f.name, sample(f)]));
      for (const f of k.fields) {
        // Left out at the top level...
        const { [f.name]: _left, ...config } = full;
        const res = await http().post('/v1/sources').send({ kind: k.kind, name: `${k.kind} without ${f.name}`, config });
        const named = res.status === 400 ? (res.body.errors as Array<{ field: string; rule: string }>).filter((e) => e.field === `config.${f.name}`) : [];
        expect({ kind: k.kind, field: f.name, refusedAsRequired: named.some((e) => /is required/.test(e.rule)) }).toEqual({ kind: k.kind, field: f.name, refusedAsRequired: f.required });
        if (f.required) {
          checked += 1;
          refusedNames.push(`${k.kind} without ${f.name}`);
        }
        // ...and inside each item of a list of objects.
        for (const sub of f.type === 'object[]' ? (f.fields ?? []).filter((x) => x.required) : []) {
          const { [sub.name]: _gone, ...item } = (sample(f) as Array<Record<string, unknown>>)[0];
          const nested = await http().post('/v1/sources').send({ kind: k.kind, name: `${k.kind} without ${f.name}.${sub.name}`, config: { ...full, [f.name]: [item] } }).expect(400);
          expect(nested.body.errors.map((e: { field: string }) => e.field)).toContain(`config.${f.name}[0].${sub.name}`);
          checked += 1;
          refusedNames.push(`${k.kind} without ${f.name}.${sub.name}`);
        }
      }
    }
    // Five board tokens, the file's path, the units and two keys of each unit.
    expect(checked).toBe(9);
    const saved = (await http().get('/v1/sources').expect(200)).body.map((s: { name: string }) => s.name);
    expect(saved.filter((name: string) => refusedNames.includes(name))).toEqual([]);
  });

  it('is not taken for a source id', async () => {
    await http().get('/v1/sources/kinds').expect(200);
    await http().get('/v1/sources/not-a-uuid').expect(400);
  });
});
