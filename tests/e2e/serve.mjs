// A minimal static server for dist/ on an ephemeral loopback port (wasm served as application/wasm).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
// The run command's server's content types: one table for both.
import { CONTENT_TYPES as TYPES } from '../../scripts/serve.mjs';

/** Serves `root` on 127.0.0.1; resolves to {url, close}. Unknown paths fall back to index.html (SPA).
 * `overlays` maps a URL prefix (e.g. '/public/demo/') to a directory served under it (the seeded demo world). */
export async function serveDist(root, overlays = {}) {
  return serve(root, overlays, { spa: true });
}

/** Serves a directory of publications as a static host of another origin would: any origin may read
 * (CORS), unknown paths are 404. */
export async function servePublications(dir) {
  return serve(dir, {}, { spa: false, cors: true });
}

async function serve(root, overlays, { spa, cors = false }) {
  const extra = cors ? { 'access-control-allow-origin': '*' } : {};
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const prefix = Object.keys(overlays).find((p) => path.startsWith(p));
    if (prefix) {
      try {
        const body = await readFile(join(overlays[prefix], path.slice(prefix.length)));
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(body);
      } catch {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
      return;
    }
    let file = join(root, path);
    let body;
    try {
      body = await readFile(file);
    } catch {
      if (!spa) {
        res.writeHead(404, { ...extra, 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      file = join(root, 'index.html');
      body = await readFile(file);
    }
    res.writeHead(200, { ...extra, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}
