import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { loopbackListenerInode, processHoldsSocket } from './proc.inventory';

export interface DevToolsEndpoint {
  port: number;
  uuid: string;
  /** Always ws://127.0.0.1:<port>/devtools/browser/<uuid>: never a hostname, never another port. */
  wsUrl: string;
}

export class EndpointVerificationError extends Error {
  readonly code = 'endpoint_unverified';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Chromium's DevToolsActivePort in the attempt's fresh profile: "<port>\n/devtools/browser/<uuid>".
 * null while it is not (completely) written yet.
 */
export function readDevToolsActivePort(profileDir: string): { port: number; uuid: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(profileDir, 'DevToolsActivePort'), 'utf8');
  } catch {
    return null;
  }
  const [portLine, pathLine] = text.split('\n');
  const port = Number(portLine);
  const prefix = '/devtools/browser/';
  if (!Number.isInteger(port) || port <= 0 || port > 65_535 || !pathLine?.startsWith(prefix)) return null;
  const uuid = pathLine.slice(prefix.length).trim();
  return UUID.test(uuid) ? { port, uuid } : null;
}

function jsonVersion(port: number, timeoutMs: number): Promise<{ webSocketDebuggerUrl?: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, agent: false, path: '/json/version', timeout: timeoutMs, headers: { host: `127.0.0.1:${port}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > 64 * 1024) request.destroy(new Error('oversized /json/version'));
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(body) as { webSocketDebuggerUrl?: unknown });
        } catch {
          reject(new Error('/json/version is not JSON'));
        }
      });
    });
    request.on('timeout', () => request.destroy(new Error('/json/version timed out')));
    request.on('error', reject);
  });
}

/**
 * Binds the file, the socket and the browser to the exact process we spawned: the port named by the
 * profile's DevToolsActivePort must be a 127.0.0.1 listener whose socket `pid` itself holds, and the
 * browser answering on it must report the same WebSocket UUID. Anything else — a port some other
 * process holds, a UUID that differs (a stale or planted file), a non-loopback address — is refused.
 */
export async function verifyDevToolsEndpoint(pid: number, found: { port: number; uuid: string }, timeoutMs = 5_000): Promise<DevToolsEndpoint> {
  const holds = () => {
    const inode = loopbackListenerInode(found.port);
    return inode !== null && processHoldsSocket(pid, inode);
  };
  if (!holds()) throw new EndpointVerificationError(`port ${found.port} named by DevToolsActivePort is not a 127.0.0.1 socket held by the spawned browser (pid ${pid})`);
  const wsUrl = `ws://127.0.0.1:${found.port}/devtools/browser/${found.uuid}`;
  let reported: unknown;
  try {
    reported = (await jsonVersion(found.port, timeoutMs)).webSocketDebuggerUrl;
  } catch (err) {
    throw new EndpointVerificationError(`the browser on port ${found.port} did not answer /json/version: ${(err as Error).message}`);
  }
  if (reported !== wsUrl) throw new EndpointVerificationError(`the browser on port ${found.port} reports ${JSON.stringify(reported)}, not the ${wsUrl} its DevToolsActivePort names`);
  // Still the same process's socket after the exchange (it did not close and get rebound meanwhile).
  if (!holds()) throw new EndpointVerificationError(`port ${found.port} changed hands while it was being verified`);
  return { port: found.port, uuid: found.uuid, wsUrl };
}
