// One build of dist/ at a time. Two `npm start`s (or a start and `nx build`) that find the same app
// stale would otherwise compile into the same folder at once — half-written files under a running
// API, and Vite emptying dist/apps/web while another stack serves it. `npm test` runs two suites that
// each `npm start` a stack (tools/stack's and apps/web-e2e's), so on a fresh clone both find
// everything stale. The lock is a directory (mkdir is atomic) holding its owner's pid; a lock whose
// owner died is taken over. The caller that had to wait re-checks what is still stale: the other
// build usually did its work.
const fs = require('node:fs');
const path = require('node:path');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The owner's pid, or null when the lock is not (or no longer, or not yet readably) held. */
function ownerOf(lockDir) {
  try {
    return Number(JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8')).pid) || null;
  } catch {
    return null;
  }
}

/**
 * Takes the lock at `lockDir`, waiting while a live process holds it. Resolves with
 * `{ waitedFor: pid | null, release() }`. A lock without a readable owner is left alone for
 * `orphanMs` (its owner may be between mkdir and writing owner.json), then taken over.
 */
async function acquireBuildLock(lockDir, { pollMs = 250, orphanMs = 10_000, onWait = () => undefined } = {}) {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  let waitedFor = null;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify({ pid: process.pid, since: new Date().toISOString() }));
      return {
        waitedFor,
        release() {
          if (ownerOf(lockDir) === process.pid) fs.rmSync(lockDir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const owner = ownerOf(lockDir);
    let age = 0;
    try {
      age = Date.now() - fs.statSync(lockDir).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if ((owner !== null && !alive(owner)) || (owner === null && age > orphanMs)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (owner !== null && waitedFor !== owner) {
      waitedFor = owner;
      onWait(owner);
    }
    await sleep(pollMs);
  }
}

module.exports = { acquireBuildLock };
