// Serves the built app (dist/) as a static host should (docs/app.md, "Hosting"):
//
//  - every compressible file precompressed once, brotli (quality 11) and gzip (level 9), written beside it
//    as `<file>.br` and `<file>.gz`, and sent by the request's Accept-Encoding (`Vary: Accept-Encoding`);
//  - content types a browser needs (`application/wasm` for streaming compilation);
//  - caching by content hash: the wasm and JS (under `wasm-<hash>/`) and the CSS are named by their hash, so they are cached for a
//    year as immutable; index.html and everything else is revalidated (`no-cache`);
//  - the single-page-app fallback: a path without a file extension that is not a file gets index.html
//    (the app routes it); a missing file with an extension is 404, never a page that fails to parse.
//
// Usage: node scripts/serve.mjs [--dir dist] [--port 8080] [--address 127.0.0.1]
import { createServer } from 'node:http';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { extname, join, normalize, resolve } from 'node:path';

export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.msgpack': 'application/vnd.msgpack',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.wasm', '.css', '.json', '.svg', '.txt', '.msgpack']);
// Content-hashed names: Trunk's `style-<16 hex>.css`, and every file under scripts/build-app.mjs's
// `wasm-<16 hex>/` (the split app's modules and their JS).
const HASHED = /(-[0-9a-f]{16}(_bg)?\.(js|wasm|css)|[/\\]wasm-[0-9a-f]{16}[/\\][^/\\]+\.(js|wasm))$/;

async function* walk(dir) {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

/** `body` compressed as served: brotli at quality 11 (the build's size printout uses it too). */
export function brotli(body) {
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}

/** Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir` that lacks a fresh one;
 * returns {files, raw, br, gz} byte totals. */
export async function precompress(dir) {
  const t = { files: 0, raw: 0, br: 0, gz: 0 };
  for await (const f of walk(dir)) {
    if (!COMPRESSIBLE.has(extname(f))) continue;
    const body = await readFile(f);
    const mtime = (await stat(f)).mtimeMs;
    const fresh = async (p) => (await stat(p).catch(() => null))?.mtimeMs >= mtime;
    if (!(await fresh(`${f}.br`))) {
      await writeFile(`${f}.br`, brotli(body));
    }
    if (!(await fresh(`${f}.gz`))) await writeFile(`${f}.gz`, gzipSync(body, { level: 9 }));
    t.files += 1;
    t.raw += body.length;
    t.br += (await stat(`${f}.br`)).size;
    t.gz += (await stat(`${f}.gz`)).size;
  }
  return t;
}

/** The encoding to send for an Accept-Encoding header: `br`, `gzip` or none. */
export function pickEncoding(accept = '') {
  const offered = new Map(accept.split(',').map((p) => {
    const [name, ...params] = p.trim().toLowerCase().split(';');
    const q = params.map((x) => x.trim()).find((x) => x.startsWith('q='));
    return [name, q ? Number(q.slice(2)) : 1];
  }));
  if ((offered.get('br') ?? 0) > 0) return 'br';
  if ((offered.get('gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/** Serves `dir` on `address:port`; resolves to {url, close}. */
export async function serveStatic(dir, { port = 8080, address = '127.0.0.1' } = {}) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    const st = await stat(file).catch(() => null);
    if (st?.isDirectory()) file = join(file, 'index.html');
    else if (!st) {
      if (extname(path)) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      file = join(root, 'index.html'); // the app's own routes
    }
    const ext = extname(file);
    const headers = {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'cache-control': HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
      // Publications are read by apps of other origins (docs/networks.md).
      'access-control-allow-origin': '*',
    };
    let body = null;
    if (COMPRESSIBLE.has(ext)) {
      headers.vary = 'Accept-Encoding';
      const enc = pickEncoding(req.headers['accept-encoding']);
      const sibling = enc && (await readFile(`${file}.${enc === 'br' ? 'br' : 'gz'}`).catch(() => null));
      if (sibling) {
        body = sibling;
        headers['content-encoding'] = enc;
      }
    }
    try {
      body ??= await readFile(file);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    headers['content-length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((ok, fail) => server.once('error', fail).listen(port, address, ok));
  const bound = server.address();
  return { url: `http://${address}:${bound.port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, d) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : d;
  };
  const dir = arg('dir', 'dist');
  const t0 = Date.now();
  const t = await precompress(dir);
  const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
  console.log(`serve: ${t.files} files precompressed in ${Date.now() - t0} ms: ${kb(t.raw)} raw, ${kb(t.gz)} gzip, ${kb(t.br)} brotli`);
  const { url } = await serveStatic(dir, { port: Number(arg('port', 8080)), address: arg('address', '127.0.0.1') });
  console.log(`serve: ${dir} at ${url}`);
}
