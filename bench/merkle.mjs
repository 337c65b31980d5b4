// Benchmark (a program, not a test): StandardMerkleTree.of + every getProof, for 10k and 100k
// [address, uint256] leaves, with @openzeppelin/merkle-tree (JS) and with our WASM module
// (core/pkg-node) in the same run on the same data; plus the native Rust example when built.
//
//   scripts/build-pkg.sh                                                  # builds core/pkg-node
//   cargo build -p eden-core --example bench_merkle --profile bench-native  # optional: native column
//   node bench/merkle.mjs [sizes…]                                        # default 10000 100000
//
// Data: splitmix64 seeded with 42 (same generator as core/examples/bench_merkle.rs).
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { StandardMerkleTree: OZ } = require('@openzeppelin/merkle-tree');
const pkgNode = join(root, 'core', 'pkg-node');
if (!existsSync(join(pkgNode, 'package.json'))) {
  console.error('bench: core/pkg-node missing; run scripts/build-pkg.sh first');
  process.exit(1);
}
const { StandardMerkleTree: Ours } = require(pkgNode);

const M64 = (1n << 64n) - 1n;
function splitmix64(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & M64;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  };
}

function leaves(n) {
  const next = splitmix64(42);
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = next(), b = next(), c = next();
    const addr = '0x' + a.toString(16).padStart(16, '0') + b.toString(16).padStart(16, '0') +
      (c >> 32n).toString(16).padStart(8, '0');
    const amount = next() * (next() >> 8n);
    out[i] = [addr, amount.toString()];
  }
  return out;
}

function run(Impl, values) {
  const t0 = performance.now();
  const tree = Impl.of(values, ['address', 'uint256']);
  const t1 = performance.now();
  let total = 0;
  for (let i = 0; i < values.length; i++) total += tree.getProof(i).length;
  const t2 = performance.now();
  const root = tree.root;
  if (typeof tree.free === 'function') tree.free();
  return { ofMs: t1 - t0, proofsMs: t2 - t1, totalMs: t2 - t0, root, total };
}

function best(Impl, values, runs) {
  let b = null;
  for (let r = 0; r < runs; r++) {
    const x = run(Impl, values);
    if (!b || x.totalMs < b.totalMs) b = x;
  }
  return b;
}

function nativeResults(sizes) {
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
  const exe = join(targetDir, 'bench-native', 'examples', process.platform === 'win32' ? 'bench_merkle.exe' : 'bench_merkle');
  if (!existsSync(exe)) return null;
  const out = execFileSync(exe, ['--json', ...sizes.map(String)], { encoding: 'utf8' });
  return new Map(out.trim().split('\n').map(l => JSON.parse(l)).map(r => [r.size, r]));
}

const sizes = process.argv.slice(2).map(Number).filter(n => n > 0);
if (sizes.length === 0) sizes.push(10_000, 100_000);
const native = nativeResults(sizes);
if (!native) {
  console.log('(native column: build it with `cargo build -p eden-core --example bench_merkle --profile bench-native`)');
}

const rows = [];
for (const n of sizes) {
  const values = leaves(n);
  const oz = best(OZ, values, n <= 10_000 ? 2 : 1);
  const wasm = best(Ours, values, n <= 10_000 ? 5 : 3);
  if (oz.root !== wasm.root || oz.total !== wasm.total) throw new Error(`size ${n}: OZ and WASM disagree`);
  const nat = native?.get(n);
  if (nat && nat.root !== oz.root) throw new Error(`size ${n}: OZ and native disagree`);
  rows.push({ n, oz, wasm, nat });
}

const f = x => x.toFixed(1).padStart(9);
const r = x => (x.toFixed(1) + '×').padStart(7);
console.log('StandardMerkleTree.of + all proofs, [address, uint256] leaves (best of several runs)');
console.log('   size |  OZ JS ms |   WASM ms |  ratio | native ms |  ratio');
console.log('--------|-----------|-----------|--------|-----------|-------');
for (const { n, oz, wasm, nat } of rows) {
  const natCols = nat ? `${f(nat.totalMs)} | ${r(oz.totalMs / nat.totalMs)}` : '        - |      -';
  console.log(`${String(n).padStart(7)} | ${f(oz.totalMs)} | ${f(wasm.totalMs)} | ${r(oz.totalMs / wasm.totalMs)} | ${natCols}`);
}
console.log('\nbreakdown (of / proofs, ms):');
for (const { n, oz, wasm, nat } of rows) {
  const natPart = nat ? `  native ${nat.ofMs.toFixed(1)} / ${nat.proofsMs.toFixed(1)}` : '';
  console.log(`${String(n).padStart(7)}: OZ ${oz.ofMs.toFixed(1)} / ${oz.proofsMs.toFixed(1)}  WASM ${wasm.ofMs.toFixed(1)} / ${wasm.proofsMs.toFixed(1)}${natPart}`);
}
