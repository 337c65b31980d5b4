// Node tests of the scoring JS API (C1–C5, C8): normalise, smoothScore, buildEpoch (roots against
// @openzeppelin/merkle-tree, commitments against an independent ABI encoding, determinism under
// shuffling), verifyProjectScore and copyCheck.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { StandardMerkleTree, SimpleMerkleTree } = require('@openzeppelin/merkle-tree');
const { keccak256 } = require('ethereum-cryptography/keccak');
const { utf8ToBytes, bytesToHex } = require('ethereum-cryptography/utils');
const { encode } = require('@metamask/abi-utils');

const eden = require('../../core/pkg-node');

const hex = (b) => '0x' + bytesToHex(b);
const WAD = 10n ** 18n;
const wad = (s) => {
  const [i, f = ''] = s.split('.');
  return (BigInt(i) * WAD + BigInt((f + '0'.repeat(18)).slice(0, 18))).toString();
};

test('normalise: the §2.2 cohort (P5 = 3, P95 = 28) and reference bounds below 20 values', () => {
  const cohort = [3, 5, 6, 8, 9, 10, 11, 12, 12, 14, 15, 16, 18, 19, 20, 22, 24, 25, 28, 400].map(String);
  const out = eden.normalise(cohort, '0', '1');
  assert.equal(out[19], wad('1'));
  assert.equal(out[18], wad('1'));
  assert.equal(out[9], wad('0.44'));
  assert.equal(out[0], '0');
  const small = eden.normalise(cohort.slice(0, 19), '0', '50');
  assert.equal(small[9], wad('0.28'));
  assert.throws(() => eden.normalise(['1', 'x'], '0', '1'), /values\[1\]/);
  assert.throws(() => eden.normalise(['1'], '5', '1'), /refHi/);
});

test('smoothScore: spike, steady 0.6 and the gate fade', () => {
  const path = (gs, s = '0') => gs.map((g) => (s = eden.smoothScore(s, wad(g))));
  assert.deepEqual(path(['1', '0', '0']), ['0.4', '0.24', '0.144'].map(wad));
  assert.deepEqual(path(Array(6).fill('0.6')), ['0.24', '0.384', '0.4704', '0.52224', '0.553344', '0.5720064'].map(wad));
  assert.deepEqual(path(['0', '0', '0', '0'], wad('1')), ['0.6', '0.36', '0.216', '0.1296'].map(wad));
  assert.throws(() => eden.smoothScore(wad('1.5'), '0'), /previousWad/);
});

function input(n) {
  const projects = [];
  for (let i = 0; i < n; i++) {
    const project = hex(keccak256(utf8ToBytes(`project ${i}`)).slice(0, 20));
    projects.push({
      project,
      track: i % 5 === 0 ? 'apps' : 'agents',
      features: [i * 1234, (i * 37) % 500, (i * 11) % 200, (i * 997) % 10000].map(String),
      claims: 5 + (i % 4),
      failed: i % 3,
      verifiedOutput: String(i % 7),
      ageSecs: i % 9 === 0 ? 100 : 40 * 86400,
      salt: hex(keccak256(utf8ToBytes(`salt ${i}`))),
      private: i % 2 === 1,
    });
  }
  const previous = projects.filter((_, i) => i % 4 === 0).map((p, k) => ({ project: p.project, scoreWad: wad(String(10 + k)) }));
  return { epoch: 3, tracks: [eden.trackPreset('agents'), eden.trackPreset('apps')], projects, previous };
}

test('buildEpoch: roots equal @openzeppelin/merkle-tree, commitments equal abi.encode', () => {
  const inp = input(60);
  const b = eden.buildEpoch(inp);
  assert.equal(b.format, 'eden-epoch-bundle-v2');
  assert.equal(b.projects.length, 60);
  const scores = StandardMerkleTree.of(b.projects.map((p) => [p.project, p.scoreWad]), ['address', 'uint256']);
  assert.equal(b.root, scores.root);
  for (const p of b.projects) assert.equal(p.leaf, scores.leafHash([p.project, p.scoreWad]));
  // The inputs tree (C22): every project's (address, commitment) leaf and, for each feature of a track of
  // 20 or more projects, a column leaf (T_col, keccak256(track), feature, n, columnRoot), the column being
  // StandardMerkleTree.of(chunks of 64 sorted values, ["uint256", "uint256[]"]), built here from the inputs.
  const inputs = StandardMerkleTree.of(b.projects.map((p) => [p.project, p.commitment]), ['address', 'bytes32']);
  const leaves = b.projects.map((p) => inputs.leafHash([p.project, p.commitment]));
  const tCol = hex(keccak256(utf8ToBytes('eden.leaf.column')));
  const colLeaf = ['bytes32', 'bytes32', 'uint256', 'uint256', 'bytes32'];
  let columns = 0;
  for (const track of ['agents', 'apps']) {
    const members = inp.projects.filter((q) => q.track === track);
    const rec = b.tracks.find((t) => t.config.name === track);
    if (members.length < 20) { assert.equal(rec.columns, undefined); continue; }
    for (let f = 0; f < members[0].features.length; f++) {
      const sorted = members.map((q) => BigInt(q.features[f])).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).map(String);
      const chunks = [];
      for (let i = 0; i < sorted.length; i += 64) chunks.push([String(i + 1), sorted.slice(i, i + 64)]);
      const root = StandardMerkleTree.of(chunks, ['uint256', 'uint256[]']).root;
      const c = rec.columns.find((x) => x.feature === f);
      assert.equal(c.root, root);
      assert.equal(c.n, members.length);
      const leaf = StandardMerkleTree.of([[tCol, hex(keccak256(utf8ToBytes(track))), f, members.length, root]], colLeaf);
      leaves.push(leaf.leafHash([tCol, hex(keccak256(utf8ToBytes(track))), f, members.length, root]));
      columns++;
    }
  }
  assert.ok(columns > 0, 'the agents track is normalised by its cohort');
  assert.equal(b.inputsRoot, SimpleMerkleTree.of(leaves).root);
  const tag = hex(keccak256(utf8ToBytes('eden.inputs.v1')));
  for (const q of inp.projects) {
    const enc = encode(
      ['bytes32', 'address', 'bytes32', 'uint256[]', 'uint256', 'uint256', 'uint256', 'uint256', 'bytes32'],
      [tag, q.project, hex(keccak256(utf8ToBytes(q.track))), q.features, q.claims, q.failed, q.verifiedOutput, q.ageSecs,
        q.private ? q.salt : '0x' + '00'.repeat(32)],
    );
    const rec = b.projects.find((p) => p.project === q.project.toLowerCase());
    assert.equal(rec.commitment, hex(keccak256(enc)));
    assert.equal(rec.inputs === undefined, q.private);
    assert.equal(BigInt(rec.scoreWad), BigInt(rec.smoothedWad) * 100n);
  }
});

test('buildEpoch: theses and pre-data projects share the root (OZ SimpleMerkleTree over every leaf); epochProof', () => {
  const inp = input(30);
  const [a, b] = [inp.projects[2].project, inp.projects[7].project];
  const fresh = hex(keccak256(utf8ToBytes('fresh project')).slice(0, 20));
  const h = (s) => hex(keccak256(utf8ToBytes(s)));
  const zero = '0x' + '00'.repeat(32);
  const reg = hex(keccak256(utf8ToBytes('scorer registry')).slice(0, 20));
  const scorer = (i) => hex(keccak256(utf8ToBytes('scorer ' + i)).slice(0, 20));
  const g = (i, rest) => ({ scorerRegistry: reg, scoreId: i, scorer: scorer(i), ...rest });
  inp.theses = [
    g(0, { project: a, thesisHash: h('t1'), targetScoreWad: wad('70'), qualityWad: wad('0.8'), verdict: 0 }),
    g(1, { project: fresh, thesisHash: h('t2'), targetScoreWad: wad('80'), qualityWad: wad('0.9'), verdict: 0 }),
    g(2, { project: b, thesisHash: h('t3'), targetScoreWad: wad('20'), qualityWad: wad('0.6'), verdict: 2, matchedThesis: h('t1') }),
    g('3', { project: fresh, thesisHash: h('t4'), targetScoreWad: wad('60'), qualityWad: wad('1'), verdict: '1', matchedThesis: h('t2') }),
    g(4, { project: fresh, thesisHash: h('t5'), targetScoreWad: wad('10'), qualityWad: wad('0.5'), verdict: 0 }),
  ];
  inp.preData = [{ project: fresh }];
  const bundle = eden.buildEpoch(inp);
  const TQ = h('eden.leaf.quality');
  const TS = h('eden.leaf.systematic');
  const QE = ['bytes32', 'address', 'uint256', 'address', 'address', 'bytes32', 'uint256', 'uint8', 'bytes32'];
  const q = StandardMerkleTree.of([[TQ, reg, '0', reg, reg, zero, '0', 0, zero]], QE);
  for (const t of bundle.theses) {
    assert.equal(t.leaf, q.leafHash([TQ, t.scorerRegistry, t.scoreId, t.scorer, t.project, t.thesisHash, t.qualityWad, t.verdict, t.matchedThesis]));
    assert.equal(t.leaf, eden.qualityLeaf(t));
  }
  // C27: a human score is the project's published score, in its one score leaf; where it moved an
  // envelope project, the systematic score is kept in a systematic leaf.
  const sc = StandardMerkleTree.of([[fresh, '0']], ['address', 'uint256']);
  const sy = StandardMerkleTree.of([[TS, fresh, '0']], ['bytes32', 'address', 'uint256']);
  for (const r of bundle.human) {
    assert.equal(r.leaf, sc.leafHash([r.project, r.scoreWad]));
    const p = bundle.projects.find((x) => x.project === r.project);
    if (r.mode === 'envelope') {
      assert.equal(p.publishedWad, r.scoreWad);
      assert.equal(p.leaf, r.leaf);
      assert.equal(p.systematicLeaf, sy.leafHash([TS, p.project, p.scoreWad]));
      assert.equal(p.systematicLeaf, eden.systematicLeaf(p.project, p.scoreWad));
    } else assert.equal(p, undefined);
  }
  for (const p of bundle.projects.filter((x) => !x.systematicLeaf)) assert.equal(p.publishedWad, p.scoreWad);
  const pre = bundle.human.find((r) => r.mode === 'preData');
  assert.deepEqual(pre.path, ['18', '23', '20.5'].map(wad), 'C10 worked example');
  assert.equal(bundle.human.filter((r) => r.mode === 'envelope').length, 2);
  const all = [
    ...bundle.projects.map((p) => p.leaf),
    ...bundle.projects.filter((p) => p.systematicLeaf).map((p) => p.systematicLeaf),
    ...bundle.human.filter((r) => r.mode === 'preData').map((r) => r.leaf),
    ...bundle.theses.map((t) => t.leaf),
  ];
  const tree = SimpleMerkleTree.of(all);
  assert.equal(bundle.root, tree.root);
  for (const [i, l] of all.entries()) assert.deepEqual(eden.epochProof(bundle, l), tree.getProof(i));
  assert.throws(() => eden.epochProof(bundle, h('nope')), /leafHash: .* is not a leaf of epoch 3/);
  assert.throws(() => eden.buildEpoch({ ...inp, theses: [{ ...inp.theses[0], verdict: 4 }] }), /^Error: theses\[0\]\.verdict: 4 is not a verdict code/);
  assert.throws(() => eden.buildEpoch({ ...inp, preData: [{ project: a }] }), /^Error: preData\[0\]\.project: /);
  assert.throws(() => eden.buildEpoch({ ...inp, theses: [inp.theses[0], { ...inp.theses[1], scoreId: 0 }] }), /^Error: theses\[1\]\.scoreId: score 0 of registry/);
});

test('buildEpoch: byte-identical bundles on reruns and with shuffled input order', () => {
  const inp = input(45);
  const a = JSON.stringify(eden.buildEpoch(inp));
  assert.equal(JSON.stringify(eden.buildEpoch(inp)), a);
  const shuffled = { ...inp, projects: [...inp.projects].reverse(), previous: [...inp.previous].reverse(), tracks: [...inp.tracks].reverse() };
  for (let i = 0; i < shuffled.projects.length; i++) {
    const j = (i * 17 + 5) % shuffled.projects.length;
    [shuffled.projects[i], shuffled.projects[j]] = [shuffled.projects[j], shuffled.projects[i]];
  }
  assert.equal(JSON.stringify(eden.buildEpoch(shuffled)), a);
});

test('buildEpoch: errors name the field', () => {
  const inp = input(5);
  inp.projects[3].track = 'nope';
  assert.throws(() => eden.buildEpoch(inp), /projects\[3\]\.track/);
  const bad = input(5);
  bad.tracks[0].features[1].weightWad = '260000000000000000';
  assert.throws(() => eden.buildEpoch(bad), /tracks\[0\]\.features/);
});

test('verifyProjectScore: every project matches; a wrong salt names the commitment', () => {
  const inp = input(30);
  const b = eden.buildEpoch(inp);
  for (const p of inp.projects) {
    const r = eden.verifyProjectScore(b, p.project, p, p.salt);
    assert.equal(r.matches, true, JSON.stringify(r));
    assert.equal(r.firstMismatch, null);
    assert.deepEqual(r.steps.map((s) => s.step), ['project', 'track', 'commitment', 'inputsRoot', 'normalised', 'raw', 'gate', 'smoothed', 'published', 'leaf', 'root']);
  }
  const priv = inp.projects.find((p) => p.private);
  const r = eden.verifyProjectScore(b, priv.project, priv, '0x' + '11'.repeat(32));
  assert.equal(r.matches, false);
  assert.equal(r.firstMismatch, 'commitment');
  // a tampered bundle names the step
  const t = JSON.parse(JSON.stringify(b));
  const rec = t.projects.find((p) => p.project === priv.project.toLowerCase());
  rec.rawWad = (BigInt(rec.rawWad) + 1n).toString();
  assert.equal(eden.verifyProjectScore(t, priv.project, priv, priv.salt).firstMismatch, 'raw');
  // the JSON string form works too
  assert.equal(eden.verifyProjectScore(JSON.stringify(b), priv.project, priv, priv.salt).matches, true);
});

test('copyCheck: identical → copy with the matched hash, disjoint → original', () => {
  const a = 'The agent resolved more verified tickets this month than any other project in its track, per the processor data.';
  const h = hex(keccak256(utf8ToBytes(a)));
  const r = eden.copyCheck(a.toUpperCase(), [{ hash: h, text: a }]);
  assert.deepEqual(r, { verdict: 'copy', verdictCode: 3, matchedThesis: h, similarityBps: 10000, shared: r.shared, union: r.shared });
  const o = eden.copyCheck('an entirely unrelated text about something else completely', [{ hash: h, text: a }]);
  assert.equal(o.verdict, 'original');
  assert.equal(o.matchedThesis, '0x' + '00'.repeat(32));
  assert.throws(() => eden.copyCheck(a, [{ hash: '0x12', text: a }]), /earlier\[0\]\.hash/);
});
