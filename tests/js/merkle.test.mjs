// Differential test: our StandardMerkleTree (core/pkg-node, Rust → WASM) against
// @openzeppelin/merkle-tree 1.0.8 on random trees (seeded PRNG), sizes 1..1000, several leaf
// encodings (incl. string, tuples, arrays, bytes, negative ints): identical roots, proofs,
// multiproofs, dumps and leaf hashes; each loads the other's dump; verify/verifyMultiProof
// agree; tampered dumps are rejected.
//
// Run: scripts/build-pkg.sh && node --test tests/js/   (MERKLE_SEED=<n> to vary the data)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgNode = join(root, 'core', 'pkg-node');
if (!existsSync(join(pkgNode, 'package.json'))) {
  throw new Error('core/pkg-node is missing: run scripts/build-pkg.sh first');
}
const { StandardMerkleTree: Ours } = require(pkgNode);
const { StandardMerkleTree: OZ } = require('@openzeppelin/merkle-tree');

// ---- seeded PRNG (mulberry32) and value generators -------------------------------------
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gen(seed) {
  const rnd = mulberry32(seed);
  const int = n => Math.floor(rnd() * n);
  const pick = xs => xs[int(xs.length)];
  const hexBytes = n => {
    let s = '';
    for (let i = 0; i < n; i++) s += int(256).toString(16).padStart(2, '0');
    return s;
  };
  const bigUint = bits => {
    const nbytes = 1 + int(Math.ceil(bits / 8));
    let v = BigInt('0x' + (hexBytes(nbytes) || '0'));
    return v & ((1n << BigInt(bits)) - 1n);
  };
  const chars = ['a', 'b', 'Z', '0', ' ', 'é', '✓', '😀', '\n', '"', '\\', '中'];
  const g = {
    int, pick, rnd,
    address: () => {
      const h = hexBytes(20);
      return '0x' + (int(4) === 0 ? h.toUpperCase() : h);
    },
    uint256: () => {
      switch (int(5)) {
        case 0: return int(1000); // a JS number, as OZ accepts
        case 1: return '0x' + bigUint(256).toString(16);
        case 2: return String((1n << 256n) - 1n - BigInt(int(3)));
        default: return bigUint(256).toString();
      }
    },
    uint8: () => (int(2) ? int(256) : String(int(256))),
    uint16: () => String(int(65536)),
    int256: () => {
      switch (int(4)) {
        case 0: return String(-(1n << 255n));
        case 1: return String((1n << 255n) - 1n);
        case 2: return -1 - int(1000); // a JS number (not -0: JSON has no -0)
        default: return (int(2) ? '-' : '') + bigUint(255).toString();
      }
    },
    int8: () => String(int(256) - 128),
    string: () => {
      const n = int(4) === 0 ? 0 : int(40);
      let s = '';
      for (let i = 0; i < n; i++) s += pick(chars);
      return s;
    },
    bytes: () => '0x' + hexBytes(int(70)),
    bytes32: () => '0x' + hexBytes(int(5) === 0 ? 1 + int(31) : 32),
    bytes4: () => '0x' + hexBytes(4),
    bool: () => pick([true, false, 'true', 'false']),
  };
  g.tuple_uint256_address = () => [g.uint256(), g.address()];
  g.uint8_array = () => Array.from({ length: int(5) }, g.uint8);
  g.uint16_2 = () => [g.uint16(), g.uint16()];
  g.tuple_string_boolarr = () => [g.string(), Array.from({ length: int(3) }, () => !!int(2))];
  return g;
}

const ENCODINGS = [
  { enc: ['address', 'uint256'], make: g => [g.address(), g.uint256()] },
  { enc: ['string'], make: g => [g.string()] },
  { enc: ['bytes32', 'bool'], make: g => [g.bytes32(), g.bool()] },
  { enc: ['(uint256,address)', 'string'], make: g => [g.tuple_uint256_address(), g.string()] },
  { enc: ['uint8[]', 'bytes'], make: g => [g.uint8_array(), g.bytes()] },
  { enc: ['int256', 'int8'], make: g => [g.int256(), g.int8()] },
  { enc: ['bytes4', 'uint16[2]', '(string, bool[])'], make: g => [g.bytes4(), g.uint16_2(), g.tuple_string_boolarr()] },
];

function values(g, make, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    // Now and then repeat an earlier value (duplicate leaves: stable sort and OZ's hash lookup).
    out.push(out.length > 0 && g.int(25) === 0 ? structuredClone(out[g.int(out.length)]) : make(g));
  }
  return out;
}

function sampleIndices(g, n, k) {
  if (n <= k) return [...Array(n).keys()];
  const s = new Set([0, n - 1]);
  while (s.size < k) s.add(g.int(n));
  return [...s];
}

function randomSubset(g, n) {
  const k = g.int(Math.min(n, 12) + 1);
  const s = new Set();
  while (s.size < k) s.add(g.int(n));
  const arr = [...s];
  return arr.sort(() => g.rnd() - 0.5);
}

function outcome(f) {
  try {
    return { ok: f() };
  } catch (e) {
    return { threw: true };
  }
}

function flipHex(h, g) {
  const i = 2 + g.int(64);
  const c = h[i] === '0' ? '1' : '0';
  return h.slice(0, i) + c + h.slice(i + 1);
}

// ---- the differential check of one tree --------------------------------------------------
function checkTree(g, enc, vals, sortLeaves) {
  const opts = { sortLeaves };
  const oz = OZ.of(vals, enc, opts);
  const ours = Ours.of(vals, enc, opts);
  const label = `${JSON.stringify(enc)} n=${vals.length} sort=${sortLeaves}`;

  assert.equal(ours.root, oz.root, `root ${label}`);
  assert.equal(ours.length, oz.length);
  const ozDump = oz.dump();
  const ourDump = ours.dump();
  assert.deepEqual(ourDump, ozDump, `dump ${label}`);

  // Proofs by index (all, or a sample for big trees), and by value for a few.
  const idx = sampleIndices(g, vals.length, 60);
  for (const i of idx) {
    assert.deepEqual(ours.getProof(i), oz.getProof(i), `proof ${i} ${label}`);
    assert.equal(ours.leafHash(vals[i]), oz.leafHash(vals[i]), `leafHash ${i} ${label}`);
  }
  for (const i of idx.slice(0, 3)) {
    assert.deepEqual(ours.getProof(vals[i]), oz.getProof(vals[i]), `proof by value ${i} ${label}`);
    assert.deepEqual(ours.at(i), oz.at(i));
  }

  // Multiproofs for random index sets (and the empty set).
  const subsets = [[], ...Array.from({ length: 4 }, () => randomSubset(g, vals.length))];
  if (vals.length <= 16) subsets.push([...Array(vals.length).keys()]);
  for (const s of subsets) {
    const a = ours.getMultiProof(s);
    const b = oz.getMultiProof([...s]);
    assert.deepEqual(a, b, `multiproof ${JSON.stringify(s)} ${label}`);
    assert.equal(Ours.verifyMultiProof(oz.root, enc, b), true);
    assert.equal(OZ.verifyMultiProof(oz.root, enc, a), true);
    if (a.proof.length > 0) {
      const bad = { ...a, proof: a.proof.map((h, k) => (k === 0 ? flipHex(h, g) : h)) };
      assert.deepEqual(outcome(() => Ours.verifyMultiProof(oz.root, enc, bad)), outcome(() => OZ.verifyMultiProof(oz.root, enc, bad)));
    }
    if (a.proofFlags.length > 0) {
      const bad = { ...a, proofFlags: a.proofFlags.map((f, k) => (k === 0 ? !f : f)) };
      assert.deepEqual(outcome(() => Ours.verifyMultiProof(oz.root, enc, bad)), outcome(() => OZ.verifyMultiProof(oz.root, enc, bad)));
    }
  }

  // verify agrees: a good proof, a tampered proof, a wrong value.
  const i = idx[g.int(idx.length)];
  const proof = oz.getProof(i);
  assert.equal(Ours.verify(oz.root, enc, vals[i], proof), true);
  if (proof.length > 0) {
    const bad = proof.map((h, k) => (k === proof.length - 1 ? flipHex(h, g) : h));
    assert.equal(Ours.verify(oz.root, enc, vals[i], bad), OZ.verify(oz.root, enc, vals[i], bad));
    assert.equal(Ours.verify(oz.root, enc, vals[i], bad), false);
  }
  const j = (i + 1) % vals.length;
  assert.equal(Ours.verify(oz.root, enc, vals[j], proof), OZ.verify(oz.root, enc, vals[j], proof));

  // Each loads the other's dump (through JSON, as a file would) and gets the same tree.
  const ozJson = JSON.parse(JSON.stringify(ozDump));
  const ourJson = JSON.parse(JSON.stringify(ourDump));
  const oursFromOz = Ours.load(ozJson);
  assert.equal(oursFromOz.root, oz.root);
  assert.deepEqual(oursFromOz.dump(), ozJson);
  const ozFromOurs = OZ.load(ourJson);
  assert.equal(ozFromOurs.root, ours.root);
  assert.deepEqual(ozFromOurs.dump(), ourJson);

  oursFromOz.free();
  ours.free();
  return ourJson;
}

function checkTampering(g, dump) {
  const tampered = [];
  const clone = () => structuredClone(dump);
  // A value changed, a treeIndex moved, an inner node changed, a leaf changed, the format.
  let d = clone();
  const k = g.int(d.values.length);
  d.values[k].value = structuredClone(d.values[(k + 1) % d.values.length].value);
  if (JSON.stringify(d.values[k].value) !== JSON.stringify(dump.values[k].value)) tampered.push(d);
  if (dump.tree.length > 1) {
    d = clone();
    d.values[k].treeIndex = 0;
    tampered.push(d);
    d = clone();
    d.tree[0] = flipHex(d.tree[0], g);
    tampered.push(d);
    d = clone();
    d.tree[d.tree.length - 1] = flipHex(d.tree[d.tree.length - 1], g);
    tampered.push(d);
  }
  d = clone();
  d.format = 'standard-v2';
  tampered.push(d);
  for (const t of tampered) {
    assert.throws(() => Ours.load(t), Error);
    assert.throws(() => OZ.load(t), Error);
  }
}

// ---- tests ---------------------------------------------------------------------------------
const SEED = Number(process.env.MERKLE_SEED ?? 1000);
const SIZES = seed => {
  const g = gen(SEED + 7919 * seed);
  return [1, 2, 3, 4 + g.int(30), 40 + g.int(260), 1000];
};

ENCODINGS.forEach(({ enc, make }, e) => {
  test(`differential: ${JSON.stringify(enc)}`, () => {
    const g = gen(SEED + e);
    for (const [s, n] of SIZES(e).entries()) {
      const vals = values(g, make, n);
      const dump = checkTree(g, enc, vals, true);
      if (n <= 300) checkTree(g, enc, vals, false);
      if (s === 3) checkTampering(g, dump);
    }
  });
});

test('errors are thrown as Error for bad input, like OZ', () => {
  const cases = [
    [[['0x1111111111111111111111111111111111111111', '-1']], ['address', 'uint256']],
    [[['300']], ['uint8']],
    [[['0x' + '11'.repeat(21)]], ['address']],
    [[['not hex']], ['bytes']],
    [[[1, 2]], ['uint256']],
    [[['1']], ['uint7']],
    [[], ['uint256']],
  ];
  for (const [vals, enc] of cases) {
    assert.throws(() => OZ.of(vals, enc));
    assert.throws(() => Ours.of(vals, enc), Error, JSON.stringify([vals, enc]));
  }
  const t = Ours.of([['1'], ['2']], ['uint256']);
  assert.throws(() => t.getProof(2), /Index out of bounds/);
  assert.throws(() => t.getProof(['3']), /Leaf is not in tree/);
  assert.throws(() => t.getMultiProof([0, 0]), /Cannot prove duplicated index/);
  assert.throws(() => Ours.load({ format: 'nope' }), /Unknown format/);
  assert.throws(() => Ours.load(null), Error);
  assert.throws(() => Ours.verify('0x12', ['uint256'], ['1'], []), Error);
});

test('bigint values are accepted (read as decimal strings)', () => {
  const vals = [['0x1111111111111111111111111111111111111111', 5n * 10n ** 18n], ['0x2222222222222222222222222222222222222222', 7n]];
  assert.equal(Ours.of(vals, ['address', 'uint256']).root, OZ.of(vals, ['address', 'uint256']).root);
});
