import { ResponseTooLargeError } from './http.errors';

/**
 * Reads a response body, counting decoded bytes as they stream, and stops at `maxBytes`: either
 * with `ResponseTooLargeError` or, for robots.txt (`truncate`), with the prefix read so far — RFC
 * 9309 §2.5 lets a crawler ignore what lies past its parsing limit. The length is checked on
 * decoded bytes, so a small gzip body that inflates past the cap is refused too. `onBytes` hears
 * of every chunk kept, as it arrives, so a caller with a budget across responses counts what was
 * actually read even when the read later fails.
 */
export async function readBodyCapped(
  response: Response,
  url: string,
  maxBytes: number,
  mode: 'error' | 'truncate',
  onBytes?: (bytes: number) => void,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (mode === 'error' && Number.isFinite(declared) && declared > maxBytes) {
    void cancelQuietly(response);
    throw new ResponseTooLargeError(url, maxBytes);
  }
  if (!response.body) return new Uint8Array(0);

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > maxBytes) {
      void reader.cancel().catch(() => undefined);
      if (mode === 'error') throw new ResponseTooLargeError(url, maxBytes);
      chunks.push(value.subarray(0, maxBytes - total));
      onBytes?.(maxBytes - total);
      total = maxBytes;
      break;
    }
    chunks.push(value);
    total += value.byteLength;
    onBytes?.(value.byteLength);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** Decodes with the charset the server declared, falling back to UTF-8 for unknown labels. */
export function decodeBody(body: Uint8Array, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the best guess for what job boards actually send.
    return new TextDecoder('utf-8').decode(body);
  }
}

export async function cancelQuietly(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // The connection is going away either way; nothing useful to report.
  }
}
