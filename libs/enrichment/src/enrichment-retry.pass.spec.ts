import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { HostPolicyHttpClient } from '@jobctrl/shared/http';
import { JobRepository, type ObservedPosting } from '@jobctrl/shared/jobs';
import { CpuTaskPool } from '@jobctrl/shared/temporal';
import { EnrichmentRetryPass } from './enrichment-retry.pass';

const dbs = tempDbDir('enrichment-retry');
let cpu: CpuTaskPool;
let server: http.Server | undefined;
beforeAll(async () => {
  cpu = new CpuTaskPool({ width: 1 });
});
afterAll(async () => {
  await cpu.close();
  dbs.cleanup();
});
afterEach(() => server?.close());

/** A host whose robots.txt answers 500 (RFC 9309: unreachable, so the host counts as disallowed); records every path asked. */
async function unreachableRobotsHost(): Promise<{ url: (p: string) => string; paths: string[] }> {
  const paths: string[] = [];
  server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.statusCode = req.url === '/robots.txt' ? 500 : 200;
    res.end('<html><body>never read</body></html>');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: (p) => `http://127.0.0.1:${port}${p}`, paths };
}

function posting(key: string, url: string): ObservedPosting {
  return {
    jobKey: key, idempotencyKey: `v1-${key}`, contentKey: `c_${key}`, canonicalUrl: url, sourceId: 's', sourceKind: 'file', externalId: key,
    title: key, company: 'Acme', location: null, remote: null, url, applyUrl: null, descriptionHtml: null,
    descriptionText: `${key} from the export.`, postedAt: null, salaryText: null, employmentType: null, tags: [],
  };
}

describe('EnrichmentRetryPass', () => {
  it('outside any run: retries due jobs whose robots.txt stays unreachable, then hands them to scoring as source_only', async () => {
    const host = await unreachableRobotsHost();
    const databasePath = dbs.file('pass');
    await runMigrations({ databasePath });
    const jobs = new JobRepository(new UnitOfWorkFactory({ databasePath, entities: [] }));
    await jobs.recordObservations('finished-run', 'file', [posting('j_a', host.url('/jobs/a')), posting('j_b', host.url('/jobs/b'))]);
    const t0 = Date.now();
    for (const key of ['j_a', 'j_b']) await jobs.recordEnrichment(key, { status: 'failed_retryable', error: 'robots.txt unreachable', nextAttemptAt: t0 + 60_000 }, t0);
    const handed: string[] = [];
    const pass = new EnrichmentRetryPass({
      jobs,
      cpu,
      // No robots verdict is cached across passes here: each pass asks the host again (its two jobs share one fetch).
      http: new HostPolicyHttpClient({ minSpacingMs: 0, maxInFlightPerHost: 2, robotsUnreachableTtlMs: 0, allowedPrivateHosts: ['127.0.0.1'] }),
      retry: { maxAttempts: 3, baseDelayMs: 60_000, factor: 2 },
      width: () => 2,
      startPreparation: async (j) => void handed.push(j.jobKey),
    });
    expect(await pass.run({ now: t0 + 59_000 })).toMatchObject({ retried: 0 });
    expect(await pass.run({ now: t0 + 60_000 })).toEqual({ retried: 2, enriched: 0, sourceOnly: 0, rescheduled: 2, handedOff: 0 });
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'pending_enrichment', enrichmentAttempts: 2, enrichmentNextAttemptAt: new Date(t0 + 60_000 + 120_000).toISOString() });
    expect(await pass.run({ now: t0 + 179_999 })).toMatchObject({ retried: 0 });
    expect(await pass.run({ now: t0 + 180_000 })).toEqual({ retried: 2, enriched: 0, sourceOnly: 2, rescheduled: 0, handedOff: 2 });
    expect(handed.sort()).toEqual(['j_a', 'j_b']);
    for (const key of ['j_a', 'j_b']) {
      expect(await jobs.get(key)).toMatchObject({
        stage: 'pending_score',
        enrichmentStatus: 'source_only',
        enrichmentNextAttemptAt: null,
        descriptionText: `${key} from the export.`,
        enrichmentError: expect.stringMatching(/after 3 attempts \(last: .*robots\.txt/),
      });
    }
    // Nothing is left for a later pass.
    expect(await pass.run({ now: t0 + 10 * 60 * 60_000 })).toMatchObject({ retried: 0 });
    // Only robots.txt was ever asked for: the pages themselves stayed unfetched.
    expect(host.paths.length).toBeGreaterThanOrEqual(2);
    expect(host.paths.filter((p) => p !== '/robots.txt')).toEqual([]);
  });
});
