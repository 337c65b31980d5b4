// Node tests of the Score page's checks in the JS API (`eden_core::check`): a bundle built by
// buildEpoch checks against its own root; the C10 worked example replays 0 → 18 → 23 → 20.5; a
// tampered bundle, a wrong chain target and an on-chain root it does not build are findings; and
// the reward a scorer is owed now, resumed from the chain's stored pool (`scorerOwedAt`).
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { keccak256 } = require('ethereum-cryptography/keccak');
const { utf8ToBytes, bytesToHex } = require('ethereum-cryptography/utils');

const eden = require('../../core/pkg-node');

const hex = (b) => '0x' + bytesToHex(b);
const h = (s) => hex(keccak256(utf8ToBytes(s)));
const addr = (s) => hex(keccak256(utf8ToBytes(s)).slice(0, 20));
const WAD = 10n ** 18n;
const wad = (s) => {
  const [i, f = ''] = s.split('.');
  return (BigInt(i) * WAD + BigInt((f + '0'.repeat(18)).slice(0, 18))).toString();
};

function epoch() {
  const projects = [];
  for (let i = 0; i < 24; i++) {
    projects.push({
      project: addr(`project ${i}`),
      track: 'agents',
      features: [i * 1234, (i * 37) % 500, (i * 11) % 200, (i * 997) % 10000].map(String),
      claims: 5 + (i % 4),
      failed: i % 3,
      verifiedOutput: String(i % 7),
      ageSecs: 40 * 86400,
      salt: h(`salt ${i}`),
      private: false,
    });
  }
  const fresh = addr('fresh project');
  const reg = addr('scorer registry');
  const g = (i, rest) => ({ scorerRegistry: reg, scoreId: i, scorer: addr('scorer ' + i), ...rest });
  const theses = [
    g(1, { project: fresh, thesisHash: h('t2'), targetScoreWad: wad('80'), qualityWad: wad('0.9'), verdict: 0 }),
    g(2, { project: fresh, thesisHash: h('t4'), targetScoreWad: wad('60'), qualityWad: wad('1'), verdict: 1, matchedThesis: h('t2') }),
    g(3, { project: fresh, thesisHash: h('t5'), targetScoreWad: wad('10'), qualityWad: wad('0.5'), verdict: 0 }),
  ];
  const bundle = eden.buildEpoch({ epoch: 4, tracks: [eden.trackPreset('agents')], projects, theses, preData: [{ project: fresh }] });
  const scored = theses.map((t) => ({ scoreId: t.scoreId, scorer: t.scorer, token: t.project, thesisHash: t.thesisHash, target: t.targetScoreWad }));
  return { bundle, fresh, projects, scored };
}

test('checkProjectScore: an honest bundle verifies; a changed score and a wrong own file are findings', () => {
  const { bundle, projects } = epoch();
  const p = projects[5];
  const ok = eden.checkProjectScore(bundle, p.project, bundle.root);
  assert.deepEqual(ok.findings, []);
  assert.equal(ok.leafReachesChain, true);
  assert.equal(ok.report.matches, true);
  const own = { track: p.track, features: p.features, claims: p.claims + 1, failed: p.failed, verifiedOutput: p.verifiedOutput, ageSecs: p.ageSecs };
  const wrong = eden.checkProjectScore(bundle, p.project, bundle.root, own);
  assert.deepEqual(wrong.findings, [{ kind: 'recomputeDiffers', step: 'commitment', fromOwnFile: true }]);
  const tampered = structuredClone(bundle);
  tampered.projects.find((r) => r.project === p.project).scoreWad = wad('99');
  const t = eden.checkProjectScore(tampered, p.project, bundle.root);
  assert.equal(t.leafReachesChain, false);
  assert.ok(t.findings.some((f) => f.kind === 'onchainRootDiffers'), JSON.stringify(t.findings));
  assert.throws(() => eden.checkProjectScore(bundle, addr('nobody'), bundle.root), /no systematic score/);
});

test('checkHumanScore: the C10 example replays 0 → 18 → 23 → 20.5 and the chain targets are checked', () => {
  const { bundle, fresh, scored } = epoch();
  const c = eden.checkHumanScore(bundle, fresh, bundle.root, scored, false);
  assert.deepEqual(c.findings, []);
  assert.equal(c.detail.mode, 'preData');
  assert.deepEqual(c.detail.path, ['18', '23', '20.5'].map(wad));
  assert.equal(c.detail.cap, wad('50'));
  assert.equal(c.reachesChain, true);
  assert.deepEqual(c.rows.map((r) => r.chain.kind), ['matches', 'matches', 'matches']);
  assert.deepEqual(c.rows.map((r) => [r.verdict, r.counts]), [[0, true], [1, true], [0, true]]);
  // FeeLanes says Verified: the bundle replayed with the unverified cap.
  const v = eden.checkHumanScore(bundle, fresh, bundle.root, scored, true);
  assert.deepEqual(v.findings, [{ kind: 'verifiedDiffers', bundle: false, chain: true }]);
  // A target that is not the chain's, and a score the chain does not have.
  const moved = scored.map((e, i) => (i === 0 ? { ...e, target: wad('81') } : e));
  const m = eden.checkHumanScore(bundle, fresh, bundle.root, moved.slice(0, 2));
  assert.deepEqual(m.findings.map((f) => f.kind), ['targetDiffers', 'scoreNotOnChain']);
  // Pending: no root, recomputed, not reaching the chain.
  const p = eden.checkHumanScore(bundle, fresh);
  assert.equal(p.reachesChain, false);
  assert.equal(eden.checkHumanScore(bundle, addr('project 3'), bundle.root), null);
});

test('scorerOwedAt: one segment pays the capped share, as ScorerRegistry would', () => {
  // ω = 40, 30, 45 (WAD units), ends 1000, 1100, 1200; 1e6 units per second: D = 900, so the
  // heaviest earns 5 % of 5e8 over 500 s.
  const w = (x) => (BigInt(x) * WAD).toString();
  const positions = [40, 30, 45].map((x, i) => ({ scorer: addr('s' + i), weight: w(x), snapshot: '0', end: 1000 + 100 * i, owedStored: '0' }));
  const pool = { index: '0', totalWeight: w(115), maxWeight: w(45), dripAmount: String(7 * 86400 * 1_000_000), dripStart: 0, lastUpdate: 0 };
  assert.equal(eden.scorerOwedAt(pool, positions, addr('s2'), 500), String(45 * 555_555));
  assert.equal(eden.scorerOwedAt(pool, positions, addr('s1'), 5000n), eden.scorerOwedAt(pool, positions, addr('s1'), '1100'));
  assert.throws(() => eden.scorerOwedAt({ ...pool, totalWeight: w(1) }, positions, addr('s2'), 500), /total weight/);
});
