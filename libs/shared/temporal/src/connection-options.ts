import * as fs from 'node:fs';
import type { ResolvedConfig } from '@jobctrl/shared/config';

export interface TemporalConnectOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  /** true when the address is the project's embedded dev server (nothing external was configured). */
  embedded: boolean;
  tls?: {
    serverNameOverride?: string;
    serverRootCACertificate?: Buffer;
    clientCertPair?: { crt: Buffer; key: Buffer };
  };
  apiKey?: string;
}

/**
 * One place that turns config (and TEMPORAL_ADDRESS, already folded in by the config loader) into
 * connection options for both the native worker connection and the API's client connection.
 */
export function temporalConnectOptions(temporal: ResolvedConfig['temporal']): TemporalConnectOptions {
  const embedded = temporal.address === null;
  const options: TemporalConnectOptions = {
    address: temporal.address ?? `127.0.0.1:${temporal.devServerPort}`,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    embedded,
  };
  if (temporal.tls) {
    const { caPath, certPath, keyPath, serverName } = temporal.tls;
    options.tls = {
      serverNameOverride: serverName,
      serverRootCACertificate: caPath ? fs.readFileSync(caPath) : undefined,
      clientCertPair: certPath && keyPath ? { crt: fs.readFileSync(certPath), key: fs.readFileSync(keyPath) } : undefined,
    };
  }
  if (temporal.apiKey) options.apiKey = temporal.apiKey;
  return options;
}
