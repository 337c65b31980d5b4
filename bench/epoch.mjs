// Benchmark: one full scoring epoch (100k projects × 12 features) through the WASM JavaScript API
// (`buildEpoch` of core/pkg-node), in Node.
//
//   bash scripts/build-pkg.sh && node bench/epoch.mjs [projects] [repetitions]
//
// EDEN_PKG_NODE=<dir> points at another pkg-node build. Target: < 3 s per epoch.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = process.env.EDEN_PKG_NODE ?? path.join(here, '..', 'core', 'pkg-node');
const entry = path.join(pkgDir, 'eden_core.js');
if (!existsSync(entry)) {
  console.error(`no ${entry}: build it first with \`bash scripts/build-pkg.sh\``);
  process.exit(2);
}
const eden = createRequire(import.meta.url)(entry);

const n = Number(process.argv[2] ?? 100_000);
const reps = Number(process.argv[3] ?? 3);

// xorshift64, as in core/examples/bench_epoch.rs (same distribution, not the same values)
let x = 0x2545f4914f6cdd1dn;
const M = (1n << 64n) - 1n;
function rnd() {
  x ^= (x << 13n) & M; x ^= x >> 7n; x ^= (x << 17n) & M;
  return x;
}
const hex = (v, bytes) => '0x' + v.toString(16).padStart(bytes * 2, '0');

const track = eden.trackPreset('agents');
const tiers = ['moneyVerified', 'moneyVerified', 'moneyVerified', 'moneyVerified',
  'counterpartyVerified', 'counterpartyVerified', 'counterpartyVerified', 'counterpartyVerified',
  'counterpartyVerified', 'counterpartyVerified', 'selfReported', 'selfReported'];
const weights = [200, 150, 100, 100, 50, 50, 50, 50, 50, 50, 75, 75];
track.name = 'bench';
track.features = tiers.map((tier, i) => ({
  name: `f${i}`, tier, weightWad: (BigInt(weights[i]) * 10n ** 15n).toString(), refLo: '0', refHi: '1000000',
}));

const projects = [];
const previous = [];
for (let i = 0; i < n; i++) {
  const project = hex((rnd() << 96n) | BigInt(i), 20);
  const features = [];
  for (let k = 0; k < 12; k++) features.push((rnd() % (1000n << BigInt(k % 8))).toString());
  const claims = Number(rnd() % 20n);
  projects.push({
    project, track: 'bench', features, claims,
    failed: claims === 0 ? 0 : Number(rnd() % BigInt(claims + 1)) >> 2,
    verifiedOutput: (rnd() % 5n).toString(),
    ageSecs: Number(rnd() % BigInt(60 * 86400)),
    salt: hex(rnd() | 1n, 32),
    private: i % 2 === 0,
  });
  if (i % 3 === 0) previous.push({ project, scoreWad: ((rnd() % 100n) * 10n ** 18n).toString() });
}
const input = { epoch: 1, tracks: [track], projects, previous };

console.log(`epoch of ${n} projects × 12 features via WASM buildEpoch (Node ${process.version})`);
let best = Infinity;
let bundle;
for (let r = 0; r < reps; r++) {
  const t = performance.now();
  bundle = eden.buildEpoch(input);
  const dt = (performance.now() - t) / 1000;
  best = Math.min(best, dt);
  console.log(`  run ${r + 1}: buildEpoch ${dt.toFixed(3)} s (root ${bundle.root})`);
}
console.log(`best buildEpoch: ${best.toFixed(3)} s (target < 3 s WASM), ${bundle.projects.length} projects`);

const p = projects[1];
const t = performance.now();
const report = eden.verifyProjectScore(bundle, p.project, p, p.salt);
console.log(`verifyProjectScore: matches ${report.matches} in ${((performance.now() - t) / 1000).toFixed(3)} s`);
