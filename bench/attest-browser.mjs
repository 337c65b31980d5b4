// Benchmark (a program, not a test): the attestation signers of a 1,000-project cohort (3,000 EIP-712
// attestations, C21) recovered in a real browser, headless Debian Chromium, through the web build of the
// JavaScript API (core/pkg): on the page's own thread, then split over one module Web Worker per core (each
// worker loads the module once; the time runs from handing out the shares to the last answer). The same
// input as bench/attest.mjs, which measures WASM in Node.
//
//   cargo run --locked -p eden-operator --example bench_build --profile bench-native   # writes the input
//   bash scripts/build-pkg.sh && bash scripts/setup.sh browser && node bench/attest-browser.mjs
//
// Goal: the cohort's attestations in under 1 s. Every server is on 127.0.0.1 and stops at the end.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveDist } from '../tests/e2e/serve.mjs';
import { launch, CHROMIUM } from '../tests/e2e/browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(root, 'core', 'pkg');
const data = join(root, 'target');
for (const [f, how] of [
  [join(pkg, 'eden_core.js'), 'bash scripts/build-pkg.sh'],
  [join(data, 'bench-attestations.json'), 'the bench_build example (see the header)'],
  [CHROMIUM, 'bash scripts/setup.sh browser'],
]) {
  if (!existsSync(f)) {
    console.error(`no ${f}: make it first with ${how}`);
    process.exit(2);
  }
}

const page = `<!doctype html><meta charset="utf-8"><title>attestations</title>
<script type="module">
import init, { recoverAttestationSigners } from '/pkg/eden_core.js';
try {
  await init();
  const b = await (await fetch('/data/bench-attestations.json')).json();
  const all = JSON.parse(b.attestations);
  const n = all.length;
  let oneMs = Infinity, signers;
  for (let rep = 0; rep < 3; rep++) {
    const t = performance.now();
    signers = recoverAttestationSigners(b.chainId, b.sourceKeyRegistry, b.attestations);
    oneMs = Math.min(oneMs, performance.now() - t);
  }
  if (signers.some((s) => typeof s !== 'string')) throw new Error('an attestation did not recover');
  const threads = Math.max(2, navigator.hardwareConcurrency || 2);
  const workers = await Promise.all(Array.from({ length: threads }, () => new Promise((resolve, reject) => {
    const w = new Worker('/worker.js', { type: 'module' });
    w.onmessage = () => resolve(w);
    w.onerror = (e) => reject(new Error(e.message));
  })));
  const shares = workers.map((_, k) => JSON.stringify(all.slice(Math.floor((k * n) / threads), Math.floor(((k + 1) * n) / threads))));
  let parMs = Infinity;
  for (let rep = 0; rep < 3; rep++) {
    const t = performance.now();
    const got = (await Promise.all(workers.map((w, k) => new Promise((resolve) => {
      w.onmessage = (e) => resolve(e.data);
      w.postMessage({ chainId: b.chainId, registry: b.sourceKeyRegistry, attestations: shares[k] });
    })))).flat();
    parMs = Math.min(parMs, performance.now() - t);
    if (got.length !== n || got.some((s, i) => s !== signers[i])) throw new Error('the workers recovered other signers');
  }
  workers.forEach((w) => w.terminate());
  window.__done = { n, oneMs, parMs, threads, agent: navigator.userAgent };
} catch (e) {
  window.__done = { error: String(e && e.stack || e) };
}
</script>`;

const worker = `import init, { recoverAttestationSigners } from '/pkg/eden_core.js';
await init();
self.onmessage = ({ data }) => self.postMessage(recoverAttestationSigners(data.chainId, data.registry, data.attestations));
self.postMessage('ready');
`;

const dir = mkdtempSync(join(tmpdir(), 'eden-attest-browser-'));
writeFileSync(join(dir, 'index.html'), page);
writeFileSync(join(dir, 'worker.js'), worker);
const server = await serveDist(dir, { '/pkg/': pkg, '/data/': data });
const browser = await launch();
try {
  const tab = await browser.newPage();
  await tab.goto(`${server.url}index.html`);
  await tab.waitForFunction(() => window.__done, null, { timeout: 300_000 });
  const r = await tab.evaluate(() => window.__done);
  if (r.error) throw new Error(r.error);
  const version = r.agent.match(/Chrome\/[\d.]+/)?.[0] ?? r.agent;
  console.log(`  ${`WASM in headless Chromium (${version})`.padEnd(58)} ${'measured'.padStart(10)}`);
  console.log(`  ${`attestation signers of 1,000 projects (${r.n}), page thread`.padEnd(58)} ${(r.oneMs / 1000).toFixed(3).padStart(8)} s  (${Math.round(r.n / (r.oneMs / 1000))}/s; goal < 1 s)`);
  console.log(`  ${`the same on ${r.threads} module Web Workers (one per core)`.padEnd(58)} ${(r.parMs / 1000).toFixed(3).padStart(8)} s  (${Math.round(r.n / (r.parMs / 1000))}/s; goal < 1 s)`);
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
