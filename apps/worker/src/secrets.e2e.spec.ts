// No secret leaves the environment (#15 security 3): a whole run on a real stack (`npm start`: its
// Temporal dev server, the compiled worker and API) against the board and LLM simulators, with the model
// key and the API token set to distinctive values. Every line any process printed (npm start's own
// output and each part's log under data/logs),
// every API answer fetched (the event stream included) and every byte under the app dir (the SQLite
// database and its WAL, the logs, Temporal's history file) is searched for those values: 0 hits.
// (The Temporal API key is only in the environment here: see the config below.)
// Lives beside the worker's pipeline responder, which makes every preparation stage pass.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startLlmSimulator } from '@jobctrl/shared/llm/testing';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { startBoardSimulator } from '@jobctrl/tools/fixtures';
import { waitFor } from '@jobctrl/tools/processes';
import { disposeStack, ThrowawayStack } from '@jobctrl/tools/stack/testing';
import { createPipelineResponder } from './test-support/llm-responder';

const SECRETS: Record<string, string> = {
  JOBCTRL_LEAK_LLM_KEY: 'sk-leakcheck-LLM-7d41c9e2b8a6f0',
  JOBCTRL_LEAK_TEMPORAL_KEY: 'tk-leakcheck-TEMPORAL-5a90f3c1e7',
  JOBCTRL_LEAK_API_TOKEN: 'at-leakcheck-APITOKEN-e62b04d9f1c3',
};

/** Where each secret (as text, or base64 of it) occurs in `text`, as "<where>: <name>". */
function hits(where: string, bytes: Buffer): string[] {
  return Object.entries(SECRETS).flatMap(([name, value]) =>
    [value, Buffer.from(value).toString('base64')].some((v) => bytes.includes(Buffer.from(v))) ? [`${where}: ${name}`] : [],
  );
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

describe('secrets stay in the environment through a full run', () => {
  let stack: ThrowawayStack | undefined;

  afterAll(() => disposeStack(stack));

  it('0 hits in every log line, API answer, event and file of the app dir', async () => {
    const llm = await startLlmSimulator({ respond: createPipelineResponder(), requireApiKey: SECRETS['JOBCTRL_LEAK_LLM_KEY'] });
    const sim = await startBoardSimulator({ seed: 5, jobsPerBoard: 4, families: [{ kind: 'greenhouse', token: 'acme' }] });
    try {
      stack = await new ThrowawayStack('jobctrl-secrets-').writeConfig({
        tailor_score_threshold: 50,
        api_token_env: 'JOBCTRL_LEAK_API_TOKEN',
        // Not temporal_api_key_env: with a key the Temporal clients speak TLS, which the embedded dev
        // server does not (the worker never connects). The variable is still in every process's
        // environment, so a process that dumps its environment is caught.
        llm: { provider: 'openai', model: 'local', base_url: llm.url, api_key_env: 'JOBCTRL_LEAK_LLM_KEY' },
      });
      const { dir, url: base } = stack;
      const started = await stack.start({ env: SECRETS });
      const auth = { authorization: `Bearer ${SECRETS['JOBCTRL_LEAK_API_TOKEN']}` };
      const answers: Array<[string, Buffer]> = [];
      const call = async (p: string, init: { method?: string; body?: unknown } = {}) => {
        const res = await fetch(`${base}${p}`, {
          method: init.method ?? 'GET',
          headers: init.body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
        });
        const text = await res.text();
        answers.push([`${init.method ?? 'GET'} ${p} → ${res.status} (headers)`, Buffer.from(JSON.stringify([...res.headers]))]);
        answers.push([`${init.method ?? 'GET'} ${p} → ${res.status}`, Buffer.from(text)]);
        if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${text}`);
        return text ? JSON.parse(text) : null;
      };

      // The event stream, read for the whole run.
      const events = new AbortController();
      let stream = '';
      const streamRes = await fetch(`${base}/v1/events`, { headers: auth, signal: events.signal });
      expect(streamRes.status).toBe(200);
      const reading = (async () => {
        const decoder = new TextDecoder();
        try {
          for await (const chunk of streamRes.body as unknown as AsyncIterable<Uint8Array>) stream += decoder.decode(chunk, { stream: true });
        } catch {
          // aborted at the end
        }
      })();

      // The model's first answers fail (a 500, then a body that is not JSON): the error paths, which
      // log and store reasons, run with the key in hand too.
      llm.enqueue({ status: 500, message: 'upstream exploded' }, { malformedBody: true });
      await call('/v1/profile', { method: 'PUT', body: sampleProfile() });
      await call('/v1/sources', { method: 'POST', body: { kind: 'greenhouse', name: 'acme', config: { board_token: 'acme', base_url: sim.url } } });
      const { runId } = await call('/v1/pipeline/runs', { method: 'POST', body: { stages: ['discover', 'score', 'tailor', 'cover'] } });
      const finished = await waitFor(
        async () => {
          const run = await call(`/v1/pipeline/runs/${runId}`);
          return run.state === 'completed' || run.state === 'failed' ? { done: run } : { progress: [run.state, run.progress, run.jobsDiscovered] };
        },
        { what: 'the run', idleTimeoutMs: 120_000 },
      );
      expect(finished.state).toBe('completed');
      const jobs = await call(`/v1/jobs?runId=${runId}&limit=100`);
      expect(jobs.total).toBeGreaterThan(0);
      for (const job of jobs.items as Array<{ jobKey: string }>) await call(`/v1/jobs/${encodeURIComponent(job.jobKey)}`);
      expect((jobs.items as Array<{ stage: string }>).some((j) => j.stage === 'prepared')).toBe(true);
      for (const p of ['/v1/settings', '/v1/health', '/v1/pipeline/operations', '/v1/pipeline/runs', '/v1/spend', '/v1/sources', '/v1/profile', '/v1/discovery/runtime', '/v1/availability', '/v1/openapi.json']) await call(p);
      // The model key was really in use: the simulator refuses any other.
      expect(llm.requests.length).toBeGreaterThan(0);
      expect(llm.requests.every((r) => r.headers['authorization'] === `Bearer ${SECRETS['JOBCTRL_LEAK_LLM_KEY']}`)).toBe(true);
      // A refused request's error must not echo what it was sent either.
      await fetch(`${base}/v1/jobs`, { headers: { authorization: `Bearer ${SECRETS['JOBCTRL_LEAK_API_TOKEN']}x` } }).then(async (r) => answers.push(['wrong token', Buffer.from(await r.text())]));
      await fetch(`${base}/v1/jobs?token=${SECRETS['JOBCTRL_LEAK_API_TOKEN']}`).then(async (r) => answers.push(['token in the query', Buffer.from(await r.text())]));

      events.abort();
      await reading;
      expect(stream.length).toBeGreaterThan(0);

      // Each part's stdout/stderr goes to its log under data/logs (searched below with every other file).
      // The API says there that a token is required and where it comes from: the variable's name, not its value.
      expect(fs.readFileSync(path.join(dir, 'data', 'logs', 'api.log'), 'utf8')).toContain('token required (from $JOBCTRL_LEAK_API_TOKEN');
      expect(fs.readdirSync(path.join(dir, 'data', 'logs'))).toEqual(expect.arrayContaining(['api.log', 'worker.log', 'temporal.log']));
      const found = [
        ...hits('npm start output (every process)', Buffer.from(started.output())),
        ...hits('event stream', Buffer.from(stream)),
        ...answers.flatMap(([where, body]) => hits(where, body)),
        ...filesUnder(path.join(dir, 'data')).flatMap((f) => hits(path.relative(dir, f), fs.readFileSync(f))),
      ];
      expect(found).toEqual([]);
      // The search itself finds a secret where there is one.
      expect(hits('self-check', Buffer.from(`x${SECRETS['JOBCTRL_LEAK_API_TOKEN']}x`))).toEqual(['self-check: JOBCTRL_LEAK_API_TOKEN']);
      expect(llm.pendingSteps).toBe(0);
      // The files searched include the app database and Temporal's history.
      expect(filesUnder(path.join(dir, 'data')).map((f) => path.basename(f))).toEqual(expect.arrayContaining(['temporal.sqlite']));
    } finally {
      await llm.close();
      await sim.stop();
    }
  }, 600_000);
});
