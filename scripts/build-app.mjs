// The app's wasm, split by route (D11): Trunk's post-build hook (Trunk.toml), so `trunk build --release` and
// `trunk serve` keep working. Trunk builds the page itself (index.html, the stylesheet, public/); its own
// Rust pipeline is skipped (`data-trunk-skip` in app/index.html) because Trunk cannot split a module yet
// (trunk-rs/trunk issue 1022). Steps, the way cargo-leptos does them:
//
//  1. cargo builds eden-app for wasm32 with its relocations kept (`-Clink-args=--emit-relocs`) and Leptos's views
//     type-erased (`--cfg erase_components`), in its own target directory (target/app) so the flags never
//     invalidate the other wasm builds;
//  2. `wasm-split-cli` (wasm_split_cli_support, installed by scripts/setup.sh app) cuts it at the split
//     points (`on_demand!`, app/src/split_point.rs): the main module, one module per group of pages, modules they share, and the
//     loader `__wasm_split.js` that fetches them relative to itself;
//  3. wasm-bindgen (`--target web`, keeping the exports the page modules link against) writes the JS glue;
//  4. wasm-opt optimizes every module for size (-Oz in release, as Trunk did), one per core at a time;
//  5. everything goes to `wasm-<16 hex>/` in the staging directory, named by the hash of the linked build,
//     so a host caches it for good (scripts/serve.mjs), and index.html gets the early reads
//     (scripts/early-requests.mjs), the preloads and the start.
//
// It prints each module's size. Usage (by Trunk): node scripts/build-app.mjs; environment TRUNK_PROFILE,
// TRUNK_STAGING_DIR, TRUNK_PUBLIC_URL, and EDEN_WASM_NAMES=1 to keep the functions' names through wasm-opt
// (`-g`; larger modules, for a CPU profile: `node bench/phone.mjs --profile FILE`).
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ON_DEMAND, ROUTES } from './app-modules.mjs';
import { earlyScript, lensCode } from './early-requests.mjs';
import { brotli } from './serve.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NAME = 'eden-app';

/** Fails the build with the tool's name and what it said. */
function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.error) throw new Error(`build-app: could not run ${cmd}: ${r.error.message} (scripts/setup.sh app installs it)`);
  if (r.status !== 0) throw new Error(`build-app: ${cmd} failed with status ${r.status}`);
}

const release = (process.env.TRUNK_PROFILE ?? 'release') === 'release';
const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error('build-app: TRUNK_STAGING_DIR is not set: run it through `trunk build`');
const publicUrl = (process.env.TRUNK_PUBLIC_URL ?? '/').replace(/\/?$/, '/');

// 1. The linked module, relocations kept.
const targetDir = join(ROOT, 'target', 'app');
// `--cfg erase_components`: Leptos's type-erased views (as cargo-leptos builds in development). Measured on this
// app's release build (issue 39): the page modules and their shared code 16 % smaller (1,059 → 888 kB brotli),
// the main module 1 %, nothing else changed.
const rustflags = [process.env.RUSTFLAGS, '--cfg erase_components', '-Clink-args=--emit-relocs'].filter(Boolean).join(' ');
run('cargo', ['build', '--locked', '-p', NAME, '--bin', NAME, '--target', 'wasm32-unknown-unknown',
  '--target-dir', targetDir, ...(release ? ['--release'] : [])], { RUSTFLAGS: rustflags });
const linked = join(targetDir, 'wasm32-unknown-unknown', release ? 'release' : 'debug', `${NAME}.wasm`);
const hash = createHash('sha256').update(readFileSync(linked)).digest('hex').slice(0, 16);
const dirName = `wasm-${hash}`;
const out = join(staging, dirName);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// 2. Split at the pages.
run('wasm-split-cli', [linked, out, '--out-name', NAME]);
// 3. The JS glue for the main module.
const unbound = join(out, `${NAME}.wasm`);
run('wasm-bindgen', ['--target', 'web', '--keep-lld-exports', '--no-demangle', '--no-typescript',
  '--out-name', NAME, '--out-dir', out, unbound]);
rmSync(unbound);
// 4. Every module optimized for size.
const modules = readdirSync(out).filter((f) => f.endsWith('.wasm'));
if (release) {
  // One wasm-opt per core at a time, the largest modules first. wasm-split-cli's name section has a
  // subsection wasm-opt does not know; it says so once per module and drops the names anyway.
  const queue = modules.map((m) => join(out, m)).sort((a, b) => statSync(b).size - statSync(a).size);
  const optimize = (f) => new Promise((ok, fail) => {
    const p = spawn('wasm-opt', ['-Oz', ...(process.env.EDEN_WASM_NAMES === '1' ? ['-g'] : []), '--enable-reference-types', '--enable-bulk-memory',
      '--enable-nontrapping-float-to-int', '--enable-sign-ext', '--enable-mutable-globals', `--output=${f}`, f],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', (e) => fail(new Error(`build-app: could not run wasm-opt: ${e.message} (npm ci installs it)`)));
    p.on('close', (code) => {
      const said = err.split('\n').filter((l) => l && !/unknown name subsection/.test(l)).join('\n');
      if (said) process.stderr.write(said + '\n');
      code === 0 ? ok() : fail(new Error(`build-app: wasm-opt failed on ${f} with status ${code}`));
    });
  });
  const worker = async () => { for (let f; (f = queue.shift()); ) await optimize(f); };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
}

// 5. The page: fetch the glue and the main module at once, then start. The route being opened has its modules
// preloaded from the start too (they would otherwise wait for the main module to run, then for the router).
const base = `${publicUrl}${dirName}/`;
const preloads = routePreloads(readFileSync(join(out, '__wasm_split.js'), 'utf8'));
const head = [
  `<link rel="modulepreload" href="${base}${NAME}.js" crossorigin="anonymous">`,
  `<link rel="modulepreload" href="${base}__wasm_split.js" crossorigin="anonymous">`,
  `<link rel="preload" href="${base}${NAME}_bg.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`,
  `<script>${preloadScript(base, preloads)}</script>`,
  `<script type="module">import init from '${base}${NAME}.js'; await init({ module_or_path: '${base}${NAME}_bg.wasm' });</script>`,
].join('\n    ');
const indexPath = join(staging, 'index.html');
const index = readFileSync(indexPath, 'utf8');
if (!index.includes('</head>') || !index.includes('<title>')) throw new Error('build-app: index.html has no <title> or </head>');
// The first reads (D11, "Reads sent early"; scripts/early-requests.mjs) go before the stylesheet: a classic script waits for the stylesheets above it (about 0.3 s on a
// slow phone, measured with bench/phone.mjs --waterfall).
writeFileSync(indexPath, index
  .replace('<title>', `<script>${earlyScript(lensCode(ROOT), publicUrl)}</script>\n    <title>`)
  .replace('</head>', `    ${head}\n  </head>`));

/** Which modules each split page needs, read from the loader wasm-split-cli wrote: `{page: [files]}`, the
 * page's own module first, then the shared modules it waits for. */
function splitModules(loader) {
  const chunks = new Map([...loader.matchAll(/const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([\w.]+)"/g)]
    .map((m) => [m[1], m[2]]));
  const pages = {};
  for (const m of loader.matchAll(/export const __wasm_split_load_(\w+?)(?:_\d+)? = wrapAsyncCb\(makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([\w.]+)"[^]*?\n, \[([^\]]*)\]\)\);/g)) {
    const deps = m[3].split(',').map((d) => d.trim()).filter(Boolean).map((d) => {
      if (!chunks.has(d)) throw new Error(`build-app: the loader names ${d}, which it never defines`);
      return chunks.get(d);
    });
    pages[m[1]] = [m[2], ...deps];
  }
  return pages;
}

/** `[[route pattern, [files]]]`; fails the build when a split module has no route here and is not on demand, or a
 * route names no module. */
function routePreloads(loader) {
  const pages = splitModules(loader);
  const routed = new Set(ROUTES.map(([, p]) => p));
  for (const p of Object.keys(pages)) {
    if (!routed.has(p) && !ON_DEMAND.includes(p)) throw new Error(`build-app: split module ${p} has no route in ROUTES`);
  }
  for (const p of ON_DEMAND) if (!pages[p]) throw new Error(`build-app: ${p} in ON_DEMAND names no module the build split out`);
  return ROUTES.map(([re, p]) => {
    if (!pages[p]) throw new Error(`build-app: route ${re} names ${p}, which the build did not split out`);
    return [re, pages[p]];
  });
}

/** A classic script that runs as the HTML is parsed: preloads the modules of the route being opened. */
function preloadScript(base, routes) {
  // The route is the path below the public URL (`/` unless Trunk was given another).
  return `(() => { const b = ${JSON.stringify(base)}, p = location.pathname.slice(${publicUrl.length - 1}) || '/';`
    + ` const r = ${JSON.stringify(routes)}.find(([re]) => new RegExp(re).test(p)); if (!r) return;`
    + ' for (const f of r[1]) { const l = document.createElement("link"); l.rel = "preload"; l.as = "fetch";'
    + ' l.type = "application/wasm"; l.crossOrigin = "anonymous"; l.href = b + f; document.head.appendChild(l); } })();';
}

// What each module weighs (brotli as served; scripts/serve.mjs).
const kb = (n) => `${(n / 1000).toFixed(1)} kB`;
const br = (f) => brotli(readFileSync(f)).length;
const rows = readdirSync(out).filter((f) => /\.(wasm|js)$/.test(f)).map((f) => [f, statSync(join(out, f)).size, br(join(out, f))]);
rows.sort((a, b) => b[1] - a[1]);
const line = (f, raw, b) => console.log(`build-app:   ${f.padEnd(48)} ${kb(raw).padStart(10)} raw ${kb(b).padStart(10)} brotli`);
console.log(`build-app: ${dirName}/, ${rows.length} files`);
for (const [f, raw, b] of rows.filter(([f]) => !f.startsWith('chunk_'))) line(f, raw, b);
const shared = rows.filter(([f]) => f.startsWith('chunk_'));
line(`${shared.length} shared modules (chunk_*.wasm)`, shared.reduce((t, r) => t + r[1], 0), shared.reduce((t, r) => t + r[2], 0));
