// The run command's static server (scripts/serve.mjs) against what a browser needs (docs/app.md, "Hosting"):
// precompressed brotli and gzip chosen by Accept-Encoding (decoding to the same bytes), application/wasm,
// year-long immutable caching only for content-hashed names, the SPA fallback for routes, 404 for a
// missing file. Run: node --test tests/js/
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { precompress, pickEncoding, serveStatic } from '../../scripts/serve.mjs';

function get(url, headers = {}) {
  return new Promise((ok, fail) => {
    request(url, { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', fail).end();
  });
}

test('Accept-Encoding picks brotli over gzip, honours q=0, and may pick nothing', () => {
  assert.equal(pickEncoding('gzip, deflate, br, zstd'), 'br');
  assert.equal(pickEncoding('gzip'), 'gzip');
  assert.equal(pickEncoding('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(pickEncoding('identity'), null);
  assert.equal(pickEncoding(undefined), null);
});

test('the server sends precompressed assets, wasm as application/wasm, caches hashed names, routes to the app', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'eden-serve-'));
  const wasm = Buffer.alloc(200_000, 7);
  wasm.write('\0asm', 0);
  writeFileSync(join(dir, 'index.html'), '<!DOCTYPE html><title>Eden</title>');
  // scripts/build-app.mjs's layout: the split app's modules under a directory named by their hash.
  mkdirSync(join(dir, 'wasm-0123456789abcdef'));
  writeFileSync(join(dir, 'wasm-0123456789abcdef', 'eden-app_bg.wasm'), wasm);
  mkdirSync(join(dir, 'public'));
  writeFileSync(join(dir, 'public', 'x.json'), JSON.stringify({ a: 'b'.repeat(5000) }));
  const totals = await precompress(dir);
  assert.equal(totals.files, 3);
  assert.ok(totals.br < totals.raw && totals.gz < totals.raw, JSON.stringify(totals));
  const s = await serveStatic(dir, { port: 0 });
  try {
    const w = `${s.url}wasm-0123456789abcdef/eden-app_bg.wasm`;
    const br = await get(w, { 'accept-encoding': 'gzip, br' });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-type'], 'application/wasm');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.match(br.headers['cache-control'], /immutable/);
    assert.deepEqual(brotliDecompressSync(br.body), wasm);
    const gz = await get(w, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), wasm);
    const raw = await get(w);
    assert.equal(raw.headers['content-encoding'], undefined);
    assert.deepEqual(raw.body, wasm);
    // A route of the app gets index.html, revalidated on every load.
    const route = await get(`${s.url}launch/0x1234`);
    assert.equal(route.status, 200);
    assert.match(route.headers['content-type'], /^text\/html/);
    assert.equal(route.headers['cache-control'], 'no-cache');
    assert.match(route.body.toString(), /<title>Eden/);
    // A missing file is 404, never the app's page (a publication that is absent must read as absent).
    assert.equal((await get(`${s.url}public/missing.json`)).status, 404);
    const pub = await get(`${s.url}public/x.json`, { 'accept-encoding': 'br' });
    assert.equal(pub.headers['access-control-allow-origin'], '*');
    assert.equal(JSON.parse(brotliDecompressSync(pub.body)).a.length, 5000);
    // Nothing outside the directory is ever read: a climbing path stays inside it.
    assert.doesNotMatch((await get(`${s.url}%2e%2e/%2e%2e/etc/passwd`)).body.toString(), /root:/);
  } finally {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
