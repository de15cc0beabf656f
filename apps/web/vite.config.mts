// `nx serve web` (development, with /v1 proxied to a running API) and `nx build web` (through
// tools/build/build.js, which the API then serves at /). The API address for the proxy comes from
// JOBCTRL_API_URL so a second stack on another port can be used; the default is the API's default.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.JOBCTRL_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: here,
  plugins: [react()],
  build: {
    outDir: path.resolve(here, '../../dist/apps/web'),
    emptyOutDir: true,
    // Served from the user's own machine: small enough without minification tricks, readable in devtools.
    sourcemap: true,
  },
  server: {
    host: '127.0.0.1',
    port: 4200,
    // SSE (GET /v1/events) passes through the proxy unbuffered.
    proxy: { '/v1': { target: api, changeOrigin: false } },
  },
});
