import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingServer {
  server: http.Server;
  port: number;
  /** `METHOD /path?query` of every request that reached it, in order. */
  hits: string[];
  /** Request body sizes, in order. */
  bodyBytes: number[];
  /** TCP connections accepted: a tunnel that carried no request still counts. */
  connections: () => number;
  close: () => Promise<void>;
}

/**
 * A loopback HTTP server that counts what reached it — requests, body bytes and raw connections —
 * for the address-rule specs (#15), where "nothing reached it" must mean not even a TCP connect.
 * The handler answers after the request body has been read (its size is in `bodyBytes` already).
 */
export async function startCountingServer(host: string, handler: (req: http.IncomingMessage, res: http.ServerResponse, bytes: number) => void, port = 0): Promise<CountingServer> {
  const hits: string[] = [];
  const bodyBytes: number[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      bodyBytes.push(bytes);
      handler(req, res, bytes);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { server, port: (server.address() as AddressInfo).port, hits, bodyBytes, connections: () => connections, close };
}
