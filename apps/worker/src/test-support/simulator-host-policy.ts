/**
 * The host policy of every in-process worker that crawls the loopback simulators (board, forms):
 * no politeness spacing (the simulator is the only host; tests and benches measure the pipeline),
 * four requests at once, and 127.0.0.1 listed in allowed_private_hosts — the crawler refuses
 * loopback addresses otherwise (#15), which is the one thing a test world must opt out of.
 */
import type { SourceAddressPolicy } from '@jobctrl/discovery';

export const SIMULATOR_HOST_POLICY = Object.freeze({ minSpacingMs: 0, maxInFlightPerHost: 4, allowedPrivateHosts: Object.freeze(['127.0.0.1']) });

/**
 * Where the harnesses' sources may point when saved through SourceService: the simulators'
 * 127.0.0.1, and file sources under `fileDir` (the test's own temporary folder).
 */
export function simulatorSourcePolicy(fileDir?: string): SourceAddressPolicy {
  return { allowedPrivateHosts: SIMULATOR_HOST_POLICY.allowedPrivateHosts, fileSourceDirs: fileDir ? [fileDir] : [] };
}

/** The same for a worker APP a test spawns on its own config.json (the key the worker reads). */
export const SIMULATOR_CONFIG_KEYS = Object.freeze({ allowed_private_hosts: [...SIMULATOR_HOST_POLICY.allowedPrivateHosts] });
