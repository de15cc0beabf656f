import { MAX_PAGES, paginate } from './offset-paging.reader';
import { type HttpClient, MalformedResponseError } from './source-adapter.model';

/** A list server in memory: answers `?offset=` with up to `pageSize` numbers of a list of `total`. */
function listServer(total: number, pageSize: number): HttpClient & { requests: string[] } {
  const requests: string[] = [];
  const page = (url: string) => {
    requests.push(url);
    const offset = Number(new URL(url).searchParams.get('offset'));
    return Array.from({ length: Math.max(0, Math.min(pageSize, total - offset)) }, (_, i) => offset + i);
  };
  return { requests, getJson: async <T>(url: string) => page(url) as T, getText: async (url: string) => JSON.stringify(page(url)) };
}

async function pages<T>(it: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const p of it) out.push(p);
  return out;
}

const url = (offset: number) => `http://list.test/items?offset=${offset}`;

describe('paginate: offset-paged lists', () => {
  it('moves the offset by what the server sent, yields each non-empty page and stops where the adapter says', async () => {
    const http = listServer(7, 3);
    const read = await pages(paginate({ http }, url, (s, body) => {
      const items = s.array(body, 'body') as number[];
      return { items: items.filter((n) => n % 2 === 0), advance: items.length, last: items.length === 0 };
    }));
    expect(read).toEqual([[0, 2], [4], [6]]);
    expect(http.requests.map((u) => new URL(u).searchParams.get('offset'))).toEqual(['0', '3', '6', '7']);
  });

  it('a server that never ends is a malformed response after MAX_PAGES pages', async () => {
    const http = listServer(Number.MAX_SAFE_INTEGER, 1);
    await expect(pages(paginate({ http }, url, (s, body) => ({ items: [], advance: (s.array(body, 'body')).length, last: false })))).rejects.toThrow(MalformedResponseError);
    expect(http.requests).toHaveLength(MAX_PAGES);
  });

  it('an aborted crawl requests nothing more', async () => {
    const http = listServer(10, 2);
    const abort = new AbortController();
    const it = paginate({ http, signal: abort.signal }, url, (s, body) => ({ items: s.array(body, 'body') as number[], advance: 2, last: false }));
    expect((await it.next()).value).toEqual([0, 1]);
    abort.abort(new Error('stop'));
    await expect(it.next()).rejects.toThrow('stop');
    expect(http.requests).toHaveLength(1);
  });
});
