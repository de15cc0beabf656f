import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileSourceAdapter } from '../adapters/file.adapter';
import { drain } from '../adapters/testing/posting-assertions.testing';
import { FileSourceRefusedError, readFileSourceInside, sourceAddressIssues, type SourceAddressPolicy } from './source-address.rules';

/**
 * #39 item 2: what sits in the import folder cannot hold the worker. A FIFO opened for reading
 * blocks a libuv pool thread until a writer appears (four of them held all four activity slots, and
 * a cancel freed none); a 1.5 GB export was read whole into one string. Real FIFOs, real devices and
 * real (sparse) files here: the blocking is the kernel's, so only the real thing shows it.
 */
const adapter = new FileSourceAdapter();
const MiB = 1024 * 1024;
/** Refusing a FIFO takes milliseconds; a blocked open would take forever, so a test of one fails at this. */
const PROMPT_MS = 5_000;

let imports: string;
let fifo: string;
beforeAll(() => {
  imports = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-hostile-files-'));
  fifo = path.join(imports, 'x.json');
  execFileSync('mkfifo', [fifo]);
  fs.mkdirSync(path.join(imports, 'folder.json'));
});
afterEach(() => {
  // A reader still blocked in open() (the code before #39) would keep a pool thread, and jest,
  // alive: a writer appearing and leaving lets that open return and the read see end-of-file.
  // Non-blocking, so with no reader waiting this fails (ENXIO) instead of waiting for one.
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
  } catch {
    // no reader was waiting
  }
});
afterAll(() => fs.rmSync(imports, { recursive: true, force: true }));

async function refusalOf(p: Promise<unknown>): Promise<FileSourceRefusedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FileSourceRefusedError);
  return err as FileSourceRefusedError;
}

describe('a FIFO or a device in file_source_dirs (#39)', () => {
  it(
    'is refused at read time, at once: the open does not wait for a writer and the opened descriptor is no regular file',
    async () => {
      const started = Date.now();
      const err = await refusalOf(readFileSourceInside('x.json', [imports]));
      expect(err.message).toMatch(/x\.json refused: is not a regular file \(fifo\)/);
      expect(err).toMatchObject({ code: 'file_source_not_regular', retryable: false });
      expect(Date.now() - started).toBeLessThan(1_000);
    },
    PROMPT_MS,
  );

  it(
    'a cancelled crawl of a FIFO source settles promptly (the slot is free again)',
    async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const { items, error } = await drain(adapter.discover(adapter.validateConfig({ path: 'x.json' }), { http: undefined as never, signal: controller.signal, fileSourceDirs: [imports] }));
      expect(items).toEqual([]);
      expect(error).toBeTruthy();
    },
    PROMPT_MS,
  );

  it.each([
    ['x.json', [], 'fifo'],
    ['folder.json', [], 'directory'],
    ['/dev/zero', ['/dev'], 'character device'],
  ])('%s is refused at save time on config.path (%s)', async (file, moreDirs, kind) => {
    const policy: SourceAddressPolicy = { allowedPrivateHosts: [], fileSourceDirs: [imports, ...moreDirs] };
    const issues = await sourceAddressIssues('file', { path: file, format: 'json' }, policy, adapter.fields);
    expect(issues).toEqual([{ field: 'config.path', value: file, rule: expect.stringContaining(`is not a regular file (${kind})`) }]);
  });

  it('a device inside file_source_dirs is refused at read time, naming its kind, before a byte is read', async () => {
    const err = await refusalOf(readFileSourceInside('/dev/zero', [imports, '/dev']));
    expect(err.message).toMatch(/is not a regular file \(character device\)/);
  });
});

describe('file_source_max_bytes and the read deadline (#39)', () => {
  it('a file larger than the cap is refused by its size before it is read, naming the file, its size and the key', async () => {
    const big = path.join(imports, 'big.json');
    // Sparse: 3 GiB on paper, nothing on disk; reading it whole would need 3 GiB of memory.
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 3 * 1024 * MiB);
    const err = await refusalOf(readFileSourceInside('big.json', [imports], { maxBytes: MiB }));
    expect(err.message).toContain(`file source big.json refused: is 3221225472 bytes, more than file_source_max_bytes (1048576)`);
    expect(err).toMatchObject({ code: 'file_source_too_large', retryable: false });
  });

  it('the cap reaches the file adapter through the discover context, and fails the source', async () => {
    fs.writeFileSync(path.join(imports, 'jobs.json'), JSON.stringify([{ url: 'https://jobs.example/1', title: 'Dev', company: 'Acme' }]));
    const ctx = { http: undefined as never, fileSourceDirs: [imports] };
    expect((await drain(adapter.discover(adapter.validateConfig({ path: 'jobs.json' }), ctx))).items.map((p) => p.title)).toEqual(['Dev']);
    const { items, error } = await drain(adapter.discover(adapter.validateConfig({ path: 'jobs.json' }), { ...ctx, fileSourceMaxBytes: 10 }));
    expect(items).toEqual([]);
    expect(error).toBeInstanceOf(FileSourceRefusedError);
    expect((error as Error).message).toMatch(/jobs\.json refused: is \d+ bytes, more than file_source_max_bytes \(10\)/);
  });

  it('is enforced while reading too: a file that holds more than its size said is cut off at the cap', async () => {
    // /proc files report size 0 and then deliver their text: the real case of a file that grows
    // between the size check and the read.
    expect(fs.statSync('/proc/self/status').size).toBe(0);
    const err = await refusalOf(readFileSourceInside('status', ['/proc/self'], { maxBytes: 100 }));
    expect(err.message).toMatch(/status refused: grew past file_source_max_bytes \(100\) while it was read/);
    expect(err.code).toBe('file_source_too_large');
  });

  it('a read that outlasts its deadline stops, naming the deadline', async () => {
    fs.writeFileSync(path.join(imports, 'slow.json'), Buffer.alloc(MiB, 0x20));
    const err = await refusalOf(readFileSourceInside('slow.json', [imports], { deadlineMs: 0 }));
    expect(err.message).toMatch(/slow\.json refused: was not read within 0 s/);
    expect(err.code).toBe('file_source_read_timeout');
  });

  it('an abort stops the read with the abort, not a result', async () => {
    fs.writeFileSync(path.join(imports, 'long.json'), Buffer.alloc(32 * MiB, 0x20));
    const controller = new AbortController();
    const reading = readFileSourceInside('long.json', [imports], { signal: controller.signal, maxBytes: 64 * MiB });
    setImmediate(() => controller.abort());
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads a regular file in chunks without breaking a character split between them', async () => {
    // 'é' is two bytes: at an odd offset, every 64 KiB chunk boundary falls inside one.
    const text = `[${JSON.stringify('x' + 'é'.repeat(200_000))}]`;
    fs.writeFileSync(path.join(imports, 'utf8.json'), text);
    await expect(readFileSourceInside('utf8.json', [imports])).resolves.toBe(text);
  });
});
