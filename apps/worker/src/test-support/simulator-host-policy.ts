/**
 * The host policy of every in-process worker that crawls the loopback simulators (board, forms):
 * no politeness spacing (the simulator is the only host; tests and benches measure the pipeline),
 * four requests at once, and 127.0.0.1 listed in allowed_private_hosts — the crawler refuses
 * loopback addresses otherwise (#15), which is the one thing a test world must opt out of.
 */
export const SIMULATOR_HOST_POLICY = Object.freeze({ minSpacingMs: 0, maxInFlightPerHost: 4, allowedPrivateHosts: Object.freeze(['127.0.0.1']) });
