import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { JOBCTRL_CONFIG, ResolvedConfig } from '@jobctrl/shared/config';
import { temporalConnectOptions, TemporalConnectOptions } from './connection-options';

export interface TemporalReachability {
  status: 'reachable' | 'unreachable';
  address: string;
  namespace: string;
  embedded: boolean;
  error?: string;
}

/**
 * The API's lazily opened Temporal client. Connecting lazily lets the API start (and answer health)
 * while Temporal is still starting or down; a failed connection is dropped and retried on next use.
 */
@Injectable()
export class TemporalClientService implements OnModuleDestroy {
  private readonly options: TemporalConnectOptions;
  private connecting: Promise<Connection> | null = null;

  constructor(@Inject(JOBCTRL_CONFIG) config: ResolvedConfig) {
    this.options = temporalConnectOptions(config.temporal);
  }

  get taskQueue(): string {
    return this.options.taskQueue;
  }

  async client(): Promise<Client> {
    const connection = await this.connection();
    return new Client({ connection, namespace: this.options.namespace });
  }

  /** The shared connection (opened on first use); callers must not close it. */
  async rawConnection(timeoutMs = 5_000): Promise<Connection> {
    return this.connection(timeoutMs);
  }

  get namespace(): string {
    return this.options.namespace;
  }

  async reachability(timeoutMs = 2_000): Promise<TemporalReachability> {
    const base = { address: this.options.address, namespace: this.options.namespace, embedded: this.options.embedded };
    try {
      const connection = await this.connection(timeoutMs);
      await connection.withDeadline(Date.now() + timeoutMs, () =>
        connection.workflowService.describeNamespace({ namespace: this.options.namespace }),
      );
      return { status: 'reachable', ...base };
    } catch (err) {
      this.reset();
      return { status: 'unreachable', ...base, error: err instanceof Error ? err.message : String(err) };
    }
  }

  async onModuleDestroy(): Promise<void> {
    const pending = this.connecting;
    this.connecting = null;
    if (pending) await pending.then((c) => c.close()).catch(() => undefined);
  }

  private connection(timeoutMs = 5_000): Promise<Connection> {
    if (!this.connecting) {
      // Connection.connect() leaks its channel when the first call fails (SDK 1.24); a lazy
      // connection that we close ourselves on failure does not.
      const connection = Connection.lazy({
        address: this.options.address,
        tls: this.options.tls,
        apiKey: this.options.apiKey,
        connectTimeout: timeoutMs,
      });
      this.connecting = connection.ensureConnected().then(
        () => connection,
        async (err: unknown) => {
          await connection.close().catch(() => undefined);
          throw err;
        },
      );
      this.connecting.catch(() => this.reset());
    }
    return this.connecting;
  }

  private reset(): void {
    const stale = this.connecting;
    this.connecting = null;
    stale?.then((c) => c.close()).catch(() => undefined);
  }
}
