// Benchmark (a program, not a test): what the browser does with verified inputs (C21, C22), through the WASM
// JavaScript API (core/pkg-node) in Node: the EIP-712 signers of a 1,000-project cohort's attestations
// (3,000, three sources each) recovered, and one project of a 100,000-project epoch checked from its light
// publication (its pack and its track's: bounds proven against the committed columns, proofs walked, score
// recomputed).
//
//   cargo run --locked -p eden-operator --example bench_build --profile bench-native   # writes the input
//   bash scripts/build-pkg.sh && node bench/attest.mjs
//
// Goals: the cohort's attestations in under 1 s; the light check in under 1 s. The cohort is recovered on
// one thread, then split over one worker thread per core (what a page does with Web Workers: each worker
// loads the module once, then recovers its share; the time is from handing out the shares to the last
// answer).
import { createRequire } from 'node:module';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(process.env.EDEN_PKG_NODE ?? path.join(here, '..', 'core', 'pkg-node'), 'eden_core.js');
const input = path.join(here, '..', 'target', 'bench-attestations.json');
for (const [f, how] of [[entry, 'bash scripts/build-pkg.sh'], [input, 'the bench_build example (see the header)']]) {
  if (!existsSync(f)) {
    console.error(`no ${f}: make it first with ${how}`);
    process.exit(2);
  }
}
const eden = createRequire(import.meta.url)(entry);

if (!isMainThread) {
  // A worker: recover each share it is sent.
  parentPort.on('message', ({ chainId, registry, attestations }) => {
    parentPort.postMessage(eden.recoverAttestationSigners(chainId, registry, attestations));
  });
  parentPort.postMessage('ready');
} else {
  await main();
}

async function main() {
  const b = JSON.parse(readFileSync(input, 'utf8'));
  const n = JSON.parse(b.attestations).length;

  const best = (reps, f) => {
    let min = Infinity;
    let out;
    for (let i = 0; i < reps; i++) {
      const t = performance.now();
      out = f();
      min = Math.min(min, performance.now() - t);
    }
    return [min, out];
  };
  const [sigMs, signers] = best(3, () => eden.recoverAttestationSigners(b.chainId, b.sourceKeyRegistry, b.attestations));
  if (signers.some((s) => typeof s !== 'string')) throw new Error('an attestation did not recover');
  const [packMs, c] = best(10, () => eden.checkProjectPack(b.pack, b.trackPack, b.project, b.root));
  if (c.score.findings.length || c.light.length) throw new Error(`the light check flagged: ${JSON.stringify(c)}`);

  console.log(`  ${'WASM in Node, one thread'.padEnd(58)} ${'measured'.padStart(10)}`);
  console.log(`  ${`attestation signers of 1,000 projects (${n})`.padEnd(58)} ${(sigMs / 1000).toFixed(3).padStart(8)} s  (${Math.round(n / (sigMs / 1000))}/s; goal < 1 s)`);
  console.log(`  ${`one project's light check (${((b.pack.length + b.trackPack.length) / 1000).toFixed(1)} kB)`.padEnd(58)} ${packMs.toFixed(2).padStart(8)} ms  (goal < 1 s)`);

  // The same cohort on one worker per core.
  const threads = Math.max(2, availableParallelism());
  const workers = await Promise.all(
    Array.from({ length: threads }, () => new Promise((resolve, reject) => {
      const w = new Worker(fileURLToPath(import.meta.url));
      w.once('message', () => resolve(w));
      w.once('error', reject);
    })),
  );
  const all = JSON.parse(b.attestations);
  const shares = workers.map((_, k) => JSON.stringify(all.slice(Math.floor((k * n) / threads), Math.floor(((k + 1) * n) / threads))));
  const parallel = async () => (await Promise.all(workers.map((w, k) => new Promise((resolve) => {
    w.once('message', resolve);
    w.postMessage({ chainId: b.chainId, registry: b.sourceKeyRegistry, attestations: shares[k] });
  })))).flat();
  let parMs = Infinity;
  for (let rep = 0; rep < 3; rep++) {
    const t = performance.now();
    const got = await parallel();
    parMs = Math.min(parMs, performance.now() - t);
    if (got.length !== n || got.some((s, i) => s !== signers[i])) throw new Error('the workers recovered other signers');
  }
  await Promise.all(workers.map((w) => w.terminate()));
  console.log(`  ${`the same on ${threads} worker threads (one per core)`.padEnd(58)} ${(parMs / 1000).toFixed(3).padStart(8)} s  (${Math.round(n / (parMs / 1000))}/s; goal < 1 s)`);
}
