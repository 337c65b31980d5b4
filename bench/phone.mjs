#!/usr/bin/env node
// Benchmark (a program, not a test): each route loaded cold on an emulated phone, issue 39's profile.
//
//   node bench/phone.mjs [--runs 3] [--waterfall ROUTE] [--only 'launch list,score']
//
// A fresh anvil with the demo world (tests/e2e/chain.mjs), the built app (dist/) served by the run
// command's server (scripts/serve.mjs) twice: uncompressed, as `trunk serve` sent it, then brotli/gzip
// precompressed. Headless Chromium at 390 × 844 with its own emulation of a slow 4G network (150 ms
// round trip, 1.6 Mbps down, 750 kbps up) and a 4× slower CPU; every load in a fresh browser context
// (no HTTP cache, no log cache). Per route: bytes transferred (as sent, compressed or not, the node's
// JSON-RPC included) and the time from navigation to the route's content, the median of the runs, beside
// the same run before the split and the goal (the launch list and a token page 2.5 s, other routes 1 s more).
// The content's time is the page's own: the animation frame in which the route's content element was first in
// the document (a MutationObserver in the page, on the wall clock). The time the driver saw it there
// (Playwright's waitForSelector, polling a page whose CPU is 4× slower, up to about 0.4 s later) is printed
// beside it; before 2026-12-07 it was the only time printed.
// The printout is also written to bench/results/phone.txt. `--waterfall 'launch list'` prints, for that route's
// last precompressed load, every request: when it was sent and finished (ms from navigation), its bytes and what
// it was (for JSON-RPC, its methods), and the main thread's long tasks (over 50 ms), to show where the time goes.
// `--only` loads just the routes named, only precompressed, and writes no results file (a quick look while working).
// `--profile FILE` also records a CPU profile of the waterfall's load (Chromium's sampling profiler, 0.1 ms), writes
// it to FILE (DevTools opens it) and prints the functions that took the most time in the main thread's long tasks.
// Wasm functions have names only in a build that kept them (`EDEN_WASM_NAMES=1 trunk build --release`).
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChain } from '../tests/e2e/chain.mjs';
import { launch } from '../tests/e2e/browser.mjs';
import { precompress, serveStatic } from '../scripts/serve.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1] || 3) || 3;
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const WATERFALL = args.includes('--waterfall') ? args[args.indexOf('--waterfall') + 1] : null;
const PROFILE_FILE = args.includes('--profile') ? args[args.indexOf('--profile') + 1] : null;
const PROFILE = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0, offline: false };
const CPU = 4;
// The same benchmark before the app was split by route (bench/results/phone.txt of 2026-12-05, one 3.2 MB
// module): seconds to content [uncompressed, precompressed]. The issue's own reference: 15.8 s and 7.6 s.
const BEFORE = {
  'launch list': [19.07, 7.19], 'token (graduated)': [19.34, 7.83], score: [18.57, 6.78], scorer: [18.90, 7.24],
  duels: [18.53, 6.79], calls: [19.39, 7.86], payouts: [17.55, 6.23],
};

/** Prints one load's requests in the order they were sent, in ms from navigation (`t0`, wall clock; `wall`: CDP's
 * monotonic clock to the wall clock, in ms), and when the content was there (`shown`). */
function waterfall(rows, t0, wall, shown, busy) {
  if (!rows.length) return;
  // The main thread's long tasks (over 50 ms: compiling, running the app, rendering) as rows of their own.
  for (const b of busy) rows.push({ at: (b.at - wall) / 1000, done: (b.at + b.ms - wall) / 1000, bytes: 0, busy: true });
  rows.sort((a, b) => a.at - b.at);
  const ms = (secs) => String(Math.round(secs * 1000 + wall - t0)).padStart(5);
  const what = ({ url, postData }) => {
    if (!postData) return url.replace(/^https?:\/\/[^/]+/, '');
    try {
      const body = JSON.parse(postData);
      const calls = Array.isArray(body) ? body : [body];
      return `JSON-RPC ×${calls.length}: ${[...new Set(calls.map((c) => c.method))].join(', ')}`;
    } catch { return `POST ${url}`; }
  };
  say(`waterfall of ${WATERFALL}, content at ${shown - t0} ms: sent → finished (ms from navigation), bytes, what`);
  for (const r of rows) say(`  ${ms(r.at)} → ${ms(r.done)}  ${r.busy ? '       -  main thread busy' : `${String(r.bytes).padStart(8)}  ${what(r.req)}`}`);
}

/** Prints the functions a CPU profile (CDP `Profiler.Profile`) sampled most inside the long tasks `busy` (wall
 * clock ms; `wall`: the monotonic clock to the wall clock, in ms): self time, and total time (self and callees,
 * each sample counted once per function). */
function hotFunctions(profile, wall, busy) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\//, '')}`;
  const self = new Map();
  const total = new Map();
  let t = profile.startTime;
  let inside = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const at = t / 1000 + wall;
    if (!busy.some((b) => at >= b.at && at <= b.at + b.ms)) continue;
    inside += dt;
    const leaf = byId.get(profile.samples[i]);
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
    const seen = new Set();
    for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
      const k = name(byId.get(id));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + dt);
    }
  }
  const top = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 25);
  say(`CPU profile of the long tasks (${inside.toFixed(0)} ms sampled), by self time:`);
  for (const [k, ms] of top(self)) say(`  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
  say('by total time (self and callees):');
  for (const [k, ms] of top(total)) say(`  ${ms.toFixed(1).padStart(7)} ms  ${k}`);
}

const chain = await startChain(ROOT);
const site = mkdtempSync(join(tmpdir(), 'eden-phone-'));
const lines = [];
const say = (s) => {
  console.log(s);
  lines.push(s);
};
try {
  cpSync(join(ROOT, 'dist'), site, { recursive: true });
  for (const f of readdirSync(site, { recursive: true })) if (/\.(br|gz)$/.test(f)) rmSync(join(site, f));
  cpSync(chain.demoDir, join(site, 'public', 'demo'), { recursive: true });
  mkdirSync(join(site, 'public', 'networks'), { recursive: true });
  const gard = chain.world.launches.find((l) => l.symbol === 'GARD').token;
  const routes = [
    ['launch list', 'launch', '.launch-row'],
    ['token (graduated)', `launch/${gard}`, '#buy-amount, #pool-buy-amount'],
    ['score', 'score', '#epochs tr[data-epoch]'],
    ['scorer', 'scorer', '#root-price'],
    ['duels', 'duel', '.duel-row'],
    ['calls', 'calls', '.agent-row'],
    ['payouts', 'payouts', '#payouts, #no-payouts, main p.empty'],
  ];
  say(`==> The app on an emulated phone (issue 39), ${new Date().toISOString().slice(0, 10)}: 390 × 844, 150 ms RTT, 1.6 Mbps down, CPU ${CPU}× slower; median of ${RUNS} cold loads`);
  // The split app's modules (scripts/build-app.mjs, D11): the main one every route loads, then each page's.
  const wasmDir = readdirSync(site).find((f) => /^wasm-[0-9a-f]{16}$/.test(f));
  const modules = readdirSync(join(site, wasmDir)).filter((f) => /\.(wasm|js)$/.test(f))
    .map((f) => [f, statSync(join(site, wasmDir, f)).size]).sort((a, b) => b[1] - a[1]);
  const total = (list) => list.reduce((t, [, n]) => t + n, 0).toLocaleString('en-US');
  const shared = modules.filter(([f]) => f.startsWith('chunk_'));
  say(`${wasmDir}/: ${modules.length} files, ${total(modules)} bytes raw`);
  for (const [f, n] of modules.filter(([f]) => !f.startsWith('chunk_'))) say(`  ${f} ${n.toLocaleString('en-US')}`);
  say(`  ${shared.length} modules of code pages share (chunk_*.wasm): ${total(shared)}`);
  const browser = await launch();
  try {
    for (const compressed of ONLY ? [true] : [false, true]) {
      if (compressed) {
        const t = await precompress(site);
        say(`precompressed ${t.files} files: ${t.raw.toLocaleString('en-US')} bytes → ${t.br.toLocaleString('en-US')} brotli, ${t.gz.toLocaleString('en-US')} gzip`);
      }
      const server = await serveStatic(site, { port: 0 });
      writeFileSync(join(site, 'public', 'networks', 'local.json'),
        JSON.stringify({ ...chain.network, publications: [server.url + 'public/demo/'] }, null, 2));
      say(`-- served ${compressed ? 'brotli/gzip precompressed (scripts/serve.mjs)' : 'uncompressed (as trunk serve)'}`);
      say('route | transferred | time to content | driver saw it | reference');
      for (const [name, path, sel] of routes.filter(([n]) => !ONLY || ONLY.includes(n))) {
        const times = [];
        let bytes = 0;
        for (let r = 0; r < RUNS; r++) {
          const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
          const page = await ctx.newPage();
          const cdp = await ctx.newCDPSession(page);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', PROFILE);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
          let sum = 0;
          const sent = new Map();
          const rows = [];
          // CDP's timestamps are monotonic seconds; the first request's wall time ties them to Date.now().
          let wall = null;
          cdp.on('Network.requestWillBeSent', (e) => {
            wall ??= e.wallTime * 1000 - e.timestamp * 1000;
            sent.set(e.requestId, { at: e.timestamp, req: e.request });
          });
          cdp.on('Network.loadingFinished', (e) => {
            sum += e.encodedDataLength;
            const s = sent.get(e.requestId);
            if (s) rows.push({ ...s, done: e.timestamp, bytes: e.encodedDataLength });
          });
          // The main thread's long tasks, by wall clock, on the load the waterfall prints.
          const traced = compressed && name === WATERFALL && r === RUNS - 1;
          if (traced) {
            await page.addInitScript(() => {
              window.__busy = [];
              new PerformanceObserver((l) => {
                for (const e of l.getEntries()) window.__busy.push({ at: performance.timeOrigin + e.startTime, ms: e.duration });
              }).observe({ type: 'longtask', buffered: true });
            });
          }
          // The frame in which the content was first in the document, by the page's own clock (wall time).
          await page.addInitScript((sel) => {
            const seen = new MutationObserver(() => {
              if (!document.querySelector(sel)) return;
              seen.disconnect();
              requestAnimationFrame(() => { window.__contentAt = performance.timeOrigin + performance.now(); });
            });
            seen.observe(document, { childList: true, subtree: true });
          }, sel);
          if (traced && PROFILE_FILE) {
            await cdp.send('Profiler.enable');
            await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
            await cdp.send('Profiler.start');
          }
          const t0 = Date.now();
          await page.goto(server.url + path, { waitUntil: 'commit' });
          await page.waitForSelector(sel, { timeout: 120_000 });
          const driverSaw = Date.now() - t0;
          const shown = await page.waitForFunction(() => window.__contentAt, null, { timeout: 10_000 }).then((h) => h.jsonValue());
          times.push([Math.round(shown - t0), driverSaw]);
          if (traced) {
            const busy = await page.evaluate(() => window.__busy);
            waterfall(rows, t0, wall, shown, busy);
            if (PROFILE_FILE) {
              const { profile } = await cdp.send('Profiler.stop');
              writeFileSync(PROFILE_FILE, JSON.stringify(profile));
              hotFunctions(profile, wall, busy);
            }
          }
          bytes = Math.max(bytes, sum);
          await ctx.close();
        }
        const median = (i) => times.map((t) => t[i]).sort((a, b) => a - b)[times.length >> 1];
        const ref = `${BEFORE[name][compressed ? 1 : 0]} s unsplit (as the driver saw it); ${name === 'launch list' || name.startsWith('token') ? 'goal 2.5 s' : 'goal 3.5 s'}`;
        say(`${name} | ${(bytes / 1000).toFixed(0)} kB | ${(median(0) / 1000).toFixed(2)} s | ${(median(1) / 1000).toFixed(2)} s | ${ref}`);
      }
      await server.close();
    }
  } finally {
    await browser.close();
  }
  if (!ONLY) {
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', 'phone.txt'), lines.join('\n') + '\n');
  }
} finally {
  chain.stop();
  rmSync(site, { recursive: true, force: true });
}
