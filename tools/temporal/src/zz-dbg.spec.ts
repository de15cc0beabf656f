import * as net from 'node:net';
// eslint-disable-next-line
const { startDevServer } = require('../dev-server.js');
it('dbg', async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  const t0 = Date.now();
  const timer = setInterval(() => console.log('waiting', Date.now() - t0), 3000);
  try { await startDevServer({ port, readyTimeoutMs: 10000 }); } catch (e) { console.log('ERR', Date.now() - t0, (e as Error).message.slice(0, 200)); }
  clearInterval(timer);
  blocker.close();
}, 30000);
