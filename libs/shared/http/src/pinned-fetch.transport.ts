import * as http from 'node:http';
import * as https from 'node:https';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import * as zlib from 'node:zlib';
import { type AddressGuard, pinnedLookup } from './address-guard.rules';

/** Redirects a `redirect: 'follow'` request (robots.txt) follows, like fetch's own limit order of magnitude. */
const MAX_FOLLOW = 5;

/**
 * The host policy's default transport: a `fetch`-shaped GET over node:http/https that asks the
 * AddressGuard before every connection, hop by hop, and connects to exactly the addresses it
 * admitted (a pinned `lookup`). Node's built-in fetch cannot be given a resolver without the undici
 * package, and a check followed by fetch's own DNS lookup would leave a rebinding window.
 * It implements what the client uses: GET, headers, `redirect: 'manual' | 'follow'`, `signal`, and
 * gzip/deflate/br decoding (the body reader counts decoded bytes, so a bomb is still capped).
 */
export function createPinnedFetch(guard: AddressGuard): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    for (let hop = 0; ; hop++) {
      const response = await requestOnce(url, init ?? {}, guard);
      const location = response.headers.get('location');
      if (init?.redirect === 'manual' || response.status < 300 || response.status >= 400 || !location || hop >= MAX_FOLLOW) return response;
      await response.body?.cancel().catch(() => undefined);
      url = new URL(location, url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`redirect to a non-http URL: ${url.href}`);
    }
  }) as typeof fetch;
}

async function requestOnce(url: URL, init: RequestInit, guard: AddressGuard): Promise<Response> {
  init.signal?.throwIfAborted();
  const addresses = await guard.admit(url);
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  new Headers(init.headers).forEach((value, key) => (headers[key] = value));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const request = client.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        signal: init.signal ?? undefined,
        lookup: pinnedLookup(addresses) as unknown as http.RequestOptions['lookup'],
        // A name with several addresses (localhost: 127.0.0.1 and ::1) is tried address by address;
        // Node's 250 ms per attempt gave up on a live but slow-to-accept first address on a loaded
        // machine and failed on the second (refused). A crawler can afford to wait for the first.
        autoSelectFamilyAttemptTimeout: 2_500,
      } as http.RequestOptions,
      (res) => {
        const status = res.statusCode ?? 0;
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(key, item);
        }
        try {
          const noBody = status === 204 || status === 205 || status === 304;
          if (noBody) res.resume();
          const body = noBody ? null : (Readable.toWeb(decoded(res)) as NodeReadableStream as unknown as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, statusText: res.statusMessage, headers: responseHeaders }));
        } catch (err) {
          // A status Response refuses (outside 200..599): as unusable as a broken connection.
          res.destroy();
          reject(err);
        }
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The body with its Content-Encoding undone (outermost last in the header, so undone first). */
function decoded(res: http.IncomingMessage): Readable {
  const codings = String(res.headers['content-encoding'] ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const steps: NodeJS.ReadWriteStream[] = [];
  for (const coding of codings.reverse()) {
    const step =
      coding === 'gzip' || coding === 'x-gzip'
        ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : coding === 'deflate'
          ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
          : coding === 'br'
            ? zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
            : null;
    // An unknown coding is handed on as it is, as fetch does.
    if (!step) break;
    steps.push(step);
  }
  if (steps.length === 0) return res;
  // pipeline, not pipe: a reader that cancels (size cap) or an abort tears the socket down too.
  return pipeline([res, ...steps], () => undefined) as unknown as Readable;
}
