import * as path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, WorkerOptions } from '@temporalio/worker';
import { workflowsEntry } from '../create-worker';
import { spawnGroup } from '@jobctrl/tools/processes';

/** The dev server of this test run (started by the jest globalSetup or by `npm test`). */
export function testTemporalAddress(): string {
  const address = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
  if (!address) {
    throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test worker` (the jest globalSetup starts a Temporal dev server)');
  }
  return address;
}

export interface TestConnections {
  connection: NativeConnection;
  client: Client;
  close(): Promise<void>;
}

export async function openTestConnections(address: string): Promise<TestConnections> {
  const connection = await NativeConnection.connect({ address });
  const clientConnection = await Connection.connect({ address });
  return {
    connection,
    client: new Client({ connection: clientConnection, namespace: 'default' }),
    async close() {
      await clientConnection.close();
      await connection.close();
    },
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  log: () => string;
  /** SIGTERM to its process group, a grace, then SIGKILL; resolves once nothing of it runs. */
  stop(): Promise<void>;
}

/**
 * The real worker app (apps/worker/src/main.ts) in its own process group, as `npm start` runs it.
 * spawnGroup stops it (and the Chromium it may have started) after the test, also when it failed.
 */
export function spawnWorkerApp(configPath: string, temporalAddress: string): WorkerProcess {
  const root = path.resolve(__dirname, '..', '..', '..', '..');
  const worker = spawnGroup(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', path.join(__dirname, '..', 'main.ts')], {
    cwd: root,
    env: { ...process.env, JOBCTRL_CONFIG: configPath, TEMPORAL_ADDRESS: temporalAddress, TS_NODE_PROJECT: path.join(root, 'tsconfig.base.json') },
  });
  return { child: worker.child, log: worker.output, stop: () => worker.stop() };
}

export interface SuiteTemporal {
  bundle: WorkerOptions['workflowBundle'];
  connection: NativeConnection;
  client: Client;
}

/**
 * One workflow bundle and one pair of connections per test file (bundling per Worker would cost
 * seconds each): registers the suite's beforeAll/afterAll and returns the object they fill in.
 */
export function useSuiteTemporal(workflowsPath?: string): SuiteTemporal {
  const suite = {} as SuiteTemporal;
  let connections: TestConnections | undefined;
  beforeAll(async () => {
    const entry = workflowsEntry();
    suite.bundle = await bundleWorkflowCode({ workflowsPath: workflowsPath ?? entry.workflowsPath, webpackConfigHook: entry.webpackConfigHook as never });
    connections = await openTestConnections(testTemporalAddress());
    suite.connection = connections.connection;
    suite.client = connections.client;
  });
  afterAll(() => connections?.close());
  return suite;
}
