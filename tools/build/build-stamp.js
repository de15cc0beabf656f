// The staleness check of `npm start`: a compiled tree is fresh when every input it was built from
// still has the size and mtime the build recorded. The inputs are exactly the files the TypeScript
// program read (a newly imported file needs an edit to a file already listed), plus the folders a
// build reads whole (their listing counts too, so an added or removed file shows). Checking is one
// stat per file — about 10 ms for the worker — where asking nx would build its project graph first
// (seconds on 2 cores).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const STAMP = 'build-stamp.json';

function walk(dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A digest of the inputs' identity: root-relative path, size and mtime of each (missing files too). */
function fingerprint(root, inputs) {
  const files = [...inputs.files.map((f) => path.resolve(root, f)), ...inputs.dirs.flatMap((d) => walk(path.resolve(root, d), []))];
  const hash = crypto.createHash('sha1');
  for (const file of [...new Set(files)].sort()) {
    let id = 'missing';
    try {
      const st = fs.statSync(file);
      id = `${st.size}:${st.mtimeMs}`;
    } catch {
      // a deleted input: the digest changes
    }
    hash.update(`${path.relative(root, file)}\0${id}\n`);
  }
  return hash.digest('hex');
}

/** Taken when the compiler has read the sources, so an edit made while it emits still counts as stale. */
function takeStamp(root, inputs) {
  return { builtAt: new Date().toISOString(), inputs, fingerprint: fingerprint(root, inputs) };
}

function writeStamp(outDir, stamp) {
  fs.writeFileSync(path.join(outDir, STAMP), JSON.stringify(stamp));
}

/** Why `outDir` must be rebuilt, or null when it is fresh. */
function staleReason(root, outDir) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8'));
  } catch {
    return 'never built';
  }
  return fingerprint(root, stamp.inputs) === stamp.fingerprint ? null : 'sources changed';
}

module.exports = { fingerprint, takeStamp, writeStamp, staleReason, STAMP };
