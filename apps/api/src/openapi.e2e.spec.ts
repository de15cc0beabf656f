import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import request from 'supertest';
import { loadConfig } from '@jobctrl/shared/config';
import { createApi } from './bootstrap';
import { DOCS_PATH, OPENAPI_JSON_PATH } from './openapi/openapi';
import { GENERATED_FILE } from './openapi/generate';
import { extractSchemas, renderSchemasModule } from './openapi/schema-extractor';
import type { Schema } from './openapi/openapi.types';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
type Doc = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema?: Schema }> }>; requestBody?: { content: Record<string, { schema: Schema }> }; parameters?: Array<{ in: string; name: string; required?: boolean }> }>>; components: { schemas: Record<string, Schema> } };

/** "GET /v1/jobs/{jobKey}" for every route Express really dispatches (Nest registers each on the adapter). */
function servedRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> } };
  return express.router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods)
          .filter((m) => HTTP_METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${layer.route?.path.replace(/:(\w+)/g, '{$1}')}`)
      : [],
  );
}

function documentedRoutes(doc: Doc): string[] {
  return Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${p}`));
}

/** A small OpenAPI 3.0 schema check (the subset the document uses): returns the paths that do not match. */
function mismatches(value: unknown, schema: Schema, doc: Doc, at = '$'): string[] {
  if (typeof schema['$ref'] === 'string') return mismatches(value, doc.components.schemas[(schema['$ref'] as string).split('/').pop() as string], doc, at);
  if (value === null) return schema['nullable'] || Object.keys(schema).length === 0 ? [] : [`${at}: null but not nullable`];
  if (Array.isArray(schema['allOf'])) {
    // allOf [base, own fields]: one object schema with the fields of all parts.
    const parts = (schema['allOf'] as Schema[]).map((s) => (typeof s['$ref'] === 'string' ? doc.components.schemas[(s['$ref'] as string).split('/').pop() as string] : s));
    const merged = parts.reduce<Schema>((m, s) => ({ ...m, ...s, properties: { ...(m['properties'] as object), ...(s['properties'] as object) }, required: [...((m['required'] as string[]) ?? []), ...((s['required'] as string[]) ?? [])] }), {});
    return mismatches(value, { ...merged, nullable: schema['nullable'] }, doc, at);
  }
  if (Array.isArray(schema['oneOf'])) {
    return (schema['oneOf'] as Schema[]).some((s) => mismatches(value, s, doc, at).length === 0) ? [] : [`${at}: matches no oneOf variant`];
  }
  const type = schema['type'];
  const actual = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (type && !(type === actual || (type === 'number' && actual === 'integer'))) return [`${at}: ${actual}, documented ${String(type)}`];
  if (Array.isArray(schema['enum']) && !(schema['enum'] as unknown[]).includes(value)) return [`${at}: ${JSON.stringify(value)} not in enum`];
  if (Array.isArray(value)) return value.flatMap((v, i) => mismatches(v, schema['items'] as Schema, doc, `${at}[${i}]`));
  if (typeof value !== 'object') return [];
  const props = (schema['properties'] ?? {}) as Record<string, Schema>;
  const object = value as Record<string, unknown>;
  const missing = ((schema['required'] ?? []) as string[]).filter((k) => !(k in object)).map((k) => `${at}.${k}: required, missing`);
  const extra = schema['additionalProperties'];
  return [
    ...missing,
    ...Object.entries(object).flatMap(([k, v]) => {
      if (props[k]) return mismatches(v, props[k], doc, `${at}.${k}`);
      if (extra && typeof extra === 'object') return mismatches(v, extra as Schema, doc, `${at}.${k}`);
      return extra === true ? [] : [`${at}.${k}: not documented`];
    }),
  ];
}

describe('OpenAPI document (GET /v1/openapi.json, /v1/docs)', () => {
  let dir: string;
  let app: INestApplication;
  let doc: Doc;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-openapi-'));
    const configPath = path.join(dir, 'config.json');
    fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0 }));
    app = await createApi(loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: temporalAddress } }), { logger: false });
    await app.init();
    const res = await request(app.getHttpServer()).get(OPENAPI_JSON_PATH).expect(200).expect('content-type', /json/);
    doc = res.body as Doc;
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('documents exactly the routes the app serves (a new undocumented route fails here)', () => {
    const own = new Set([`GET ${OPENAPI_JSON_PATH}`]);
    const served = servedRoutes(app).filter((r) => !own.has(r) && !r.startsWith(`GET ${DOCS_PATH}`));
    expect(served.length).toBeGreaterThan(25);
    expect(documentedRoutes(doc).sort()).toEqual([...new Set(served)].sort());
  });

  it('gives every operation a response with a schema, every error its body, and resolves every $ref', () => {
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const withSchema = Object.values(op.responses).filter((r) => Object.values(r.content ?? {}).some((c) => c.schema));
        expect({ route: `${method} ${p}`, documentedWithSchema: withSchema.length > 0 }).toEqual({ route: `${method} ${p}`, documentedWithSchema: true });
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400) expect({ route: `${method} ${p}`, status, schema: response.content?.['application/json']?.schema }).toEqual(expect.objectContaining({ schema: expect.anything() }));
        }
      }
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.filter((name) => !doc.components.schemas[name])).toEqual([]);
    // The error shapes of ARCHITECTURE §5 and the issue.
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Schema>; required?: string[] }>;
    expect(Object.keys(schemas['BadRequestError'].properties)).toContain('errors');
    expect(schemas['FieldError'].required).toEqual(['field', 'value', 'rule']);
    expect(Object.keys(schemas['ConflictError'].properties)).toContain('code');
    expect(schemas['TooManyRequestsError'].required).toContain('retryAfterSeconds');
    expect(schemas['WorkerNotReadyError'].properties['code']).toEqual({ type: 'string', enum: ['worker_not_ready'] });
    const startRun = doc.paths['/v1/pipeline/runs']['post'].responses;
    expect(Object.keys(startRun).sort()).toEqual(['202', '400', '409', '503']);
  });

  it("documents each request DTO's fields, the required ones as required (class-validator is the truth)", () => {
    const metadata = getMetadataStorage() as unknown as { validationMetadatas: Map<{ name: string }, Array<{ propertyName: string; name?: string }>> };
    const checked: string[] = [];
    for (const [target, rules] of metadata.validationMetadatas) {
      const schema = doc.components.schemas[target.name] as { properties?: Record<string, Schema>; required?: string[] } | undefined;
      if (!schema || !target.name.endsWith('Dto')) continue;
      const fields = [...new Set(rules.map((r) => r.propertyName))];
      const optional = new Set(rules.filter((r) => r.name === 'isOptional').map((r) => r.propertyName));
      expect({ dto: target.name, fields: Object.keys(schema.properties ?? {}).sort() }).toEqual({ dto: target.name, fields: expect.arrayContaining(fields) });
      expect({ dto: target.name, required: [...(schema.required ?? [])].sort() }).toEqual({ dto: target.name, required: fields.filter((f) => !optional.has(f)).sort() });
      checked.push(target.name);
    }
    expect(checked).toEqual(expect.arrayContaining(['StartPipelineRunDto', 'CreateSourceDto', 'UpdateSourceDto', 'ProfileDto', 'StartApplyDto', 'SaveAnswersDto']));
    // Query DTOs become parameters.
    const listJobs = doc.paths['/v1/jobs']['get'].parameters ?? [];
    expect(listJobs.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(expect.arrayContaining(['stage', 'minScore', 'limit', 'offset', 'sort', 'availability']));
    // Enums from the types, bounds from the class-validator rules the ValidationPipe enforces.
    expect((doc.components.schemas['StartPipelineRunDto'] as { properties: Record<string, Schema> }).properties['stages']).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['apply', 'cover', 'discover', 'score', 'tailor'] },
      minItems: 1,
      uniqueItems: true,
    });
    expect(listJobs.find((p) => p.name === 'limit')).toEqual({ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } });
    // Paging rules inherited from PageQueryDto, each list with its own largest page; the runs DTO declares no rule of its own.
    const listRuns = doc.paths['/v1/pipeline/runs']['get'].parameters ?? [];
    expect(listRuns.find((p) => p.name === 'limit')).toEqual({ name: 'limit', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100 }) });
    for (const list of [listJobs, listRuns]) expect(list.find((p) => p.name === 'offset')).toEqual({ name: 'offset', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 0 }) });
    expect((doc.components.schemas['CreateSourceDto'] as { properties: Record<string, Schema> }).properties['family']).toEqual(expect.objectContaining({ type: 'string', pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' }));
  });

  it('real answers match their documented schemas (success and error bodies)', async () => {
    const http = request(app.getHttpServer());
    const created = await http.post('/v1/sources').send({ kind: 'greenhouse', name: 'Acme', config: { board_token: 'acme' } }).expect(201);
    const calls: Array<[string, string, number, () => request.Test]> = [
      ['get', '/v1/health', 200, () => http.get('/v1/health')],
      ['get', '/v1/settings', 200, () => http.get('/v1/settings')],
      ['patch', '/v1/settings', 200, () => http.patch('/v1/settings').send({ pipeline_internal_concurrency: 3 })],
      ['patch', '/v1/settings', 400, () => http.patch('/v1/settings').send({ worker_activity_slots: 'many' })],
      ['get', '/v1/discovery/runtime', 200, () => http.get('/v1/discovery/runtime')],
      ['get', '/v1/sources', 200, () => http.get('/v1/sources')],
      ['post', '/v1/sources', 409, () => http.post('/v1/sources').send({ kind: 'greenhouse', name: 'Acme', config: { board_token: 'acme' } })],
      ['post', '/v1/sources', 400, () => http.post('/v1/sources').send({ kind: 'nope', name: '', config: 1 })],
      ['get', '/v1/sources/{id}', 200, () => http.get(`/v1/sources/${created.body.id}`)],
      ['get', '/v1/jobs', 200, () => http.get('/v1/jobs?limit=5')],
      ['get', '/v1/jobs/{jobKey}', 404, () => http.get('/v1/jobs/nope')],
      ['get', '/v1/profile', 200, () => http.get('/v1/profile')],
      ['get', '/v1/spend', 200, () => http.get('/v1/spend')],
      ['get', '/v1/availability', 200, () => http.get('/v1/availability')],
      ['get', '/v1/pipeline/operations', 200, () => http.get('/v1/pipeline/operations')],
      ['post', '/v1/pipeline/runs', 503, () => http.post('/v1/pipeline/runs').send({ stages: ['discover'] })],
    ];
    const problems: string[] = [];
    for (const [method, route, status, call] of calls) {
      const res = await call();
      const schema = doc.paths[route][method].responses[String(status)]?.content?.['application/json']?.schema;
      if (res.status !== status || !schema) {
        problems.push(`${method} ${route}: answered ${res.status}, expected ${status}${schema ? '' : ' (no documented schema)'}`);
        continue;
      }
      problems.push(...mismatches(res.body, schema, doc).map((m) => `${method} ${route} ${status} ${m}`));
    }
    expect(problems).toEqual([]);
  });

  it('serves the docs page and its Swagger UI assets from the package (no CDN)', async () => {
    const http = request(app.getHttpServer());
    const page = await http.get(DOCS_PATH).redirects(1).expect(200).expect('content-type', /html/);
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost|127\.0\.0\.1)[^"' ]*\.(js|css)/);
    const scripts = [...page.text.matchAll(/src="([^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      // Resolved as the browser does, against the page's own URL.
      const asset = new URL(src, `http://api${DOCS_PATH}`).pathname;
      await http.get(asset).expect(200).expect('content-type', /javascript/);
    }
  });

  it('the generated schemas are up to date with the controllers (`npx nx run api:openapi` rewrites them)', () => {
    expect(fs.readFileSync(GENERATED_FILE, 'utf8')).toBe(renderSchemasModule(extractSchemas()));
  }, 120_000);
});
