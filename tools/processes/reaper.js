// The reaper (see process-group.js): reads "+<pid> <graceMs>" / "-<pid>" lines on stdin from the
// process that started it; when stdin closes, that process is gone, and every group it still had
// registered is stopped with its whole tree (SIGTERM, grace, SIGKILL). Then it exits.
'use strict';

const { processTree, stopGroup } = require('./process-group');

// Its own group already keeps it out of a terminal's Ctrl-C; these make sure a stray signal to the
// group it inherited from does not end it before its job is done.
for (const sig of ['SIGINT', 'SIGHUP']) process.on(sig, () => undefined);

/** @type {Map<number, { graceMs: number, tree: Array<{ pid: number, pgid: number }> }>} */
const watched = new Map();

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  const lines = buffer.split('\n');
  buffer = lines.pop() ?? '';
  for (const line of lines) {
    const m = /^([+-])(\d+)(?: (\d+))?$/.exec(line.trim());
    if (!m) continue;
    const pid = Number(m[2]);
    if (m[1] === '+') watched.set(pid, { graceMs: Number(m[3] ?? 10_000), tree: processTree(pid) });
    else watched.delete(pid);
  }
});

// Snapshots follow the trees as they grow: once a parent dies its children are re-parented and can
// no longer be found from the group leader.
const refresh = setInterval(() => {
  for (const [pid, entry] of watched) {
    const seen = new Set(entry.tree.map((p) => p.pid));
    for (const p of processTree(pid)) if (!seen.has(p.pid)) entry.tree.push(p);
  }
}, 1_000);

process.stdin.on('close', async () => {
  clearInterval(refresh);
  await Promise.all([...watched].map(([pid, { graceMs, tree }]) => stopGroup(pid, { graceMs, known: tree })));
  process.exit(0);
});
process.stdin.resume();
