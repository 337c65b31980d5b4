// Benchmark (a program, not a test): what the browser does with verified inputs (C21, C22), through the WASM
// JavaScript API (core/pkg-node) in Node: the EIP-712 signers of a 1,000-project cohort's attestations
// (3,000, three sources each) recovered, and one project of a 100,000-project epoch checked from its light
// publication (its pack and its track's: bounds proven against the committed columns, proofs walked, score
// recomputed).
//
//   cargo run --locked -p eden-operator --example bench_build --profile bench-native   # writes the input
//   bash scripts/build-pkg.sh && node bench/attest.mjs
//
// Goals: the cohort's attestations in under 1 s; the light check in under 1 s.
import { createRequire } from 'node:module';
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
