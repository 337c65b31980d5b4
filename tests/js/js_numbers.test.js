// Node tests of the shared integer conventions of the JS API (core/src/js/mod.rs): a bounded
// integer given as a JS number (safe integer), a BigInt or a decimal string gives the same
// result, whether it is an argument or a field of an object, in every area; fractions, NaN,
// negatives where unsigned and numbers beyond Number.MAX_SAFE_INTEGER are rejected with an
// Error naming the field.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');

const eden = require('../../core/pkg-node');

// The three forms of an integer.
const forms = (n) => [Number(n), BigInt(n), String(n)];

// Asserts that `f` throws an Error whose message matches `field`.
function rejects(f, field) {
  assert.throws(f, (e) => e instanceof Error && field.test(e.message), `expected an Error naming ${field}`);
}

const BAD_NUMBERS = [1.5, NaN, Infinity, 2 ** 53];

test('arguments: number, BigInt and decimal string agree (calls, uniswap, curve, duel, rewards)', () => {
  for (const [hits, misses] of [[3, 1], [0, 0], [1000, 7]]) {
    const want = eden.trackRecordScore(hits, misses, '5000', '1000');
    for (const h of forms(hits)) for (const m of forms(misses)) {
      assert.equal(eden.trackRecordScore(h, m, '5000', '1000'), want);
    }
  }
  for (const tick of [-887272, -1, 0, 1, 887272]) {
    const want = eden.sqrtPriceAtTick(tick);
    for (const t of forms(tick)) assert.equal(eden.sqrtPriceAtTick(t), want);
  }
  for (const start of [0, 1700000000, 1700003599]) {
    const want = eden.duelFirstClose(start);
    for (const s of forms(start)) assert.equal(eden.duelFirstClose(s), want);
  }
  for (const t of [-3, 0, 7]) {
    const want = eden.splitFromTick(t);
    for (const x of forms(t)) assert.equal(eden.splitFromTick(x), want);
  }
  const NOW = 1800000000;
  for (const age of [1800, 3600, 86400]) {
    const want = eden.rootPriceAnchorWindow(NOW, NOW - age);
    for (const n of forms(NOW)) for (const i of forms(NOW - age)) {
      assert.equal(eden.rootPriceAnchorWindow(n, i), want);
    }
  }
  const state = eden.curveNewEthPair(0);
  for (const secs of [0, 30, 100000]) {
    const want = eden.curveQuoteBuy(state, '1000000000000000000', secs);
    for (const s of forms(secs)) assert.deepEqual(eden.curveQuoteBuy(state, '1000000000000000000', s), want);
  }
  // Optional argument with a default: undefined/null → default, any form otherwise.
  assert.deepEqual(eden.consensusState([], undefined, null), eden.consensusState([], 3, 6667));
  for (const q of forms(5)) assert.deepEqual(eden.consensusState([], q, 6667n), eden.consensusState([], 5, 6667));
});

test('object fields: number, BigInt and decimal string agree (curve state, duel observations, rewards input)', () => {
  const state = eden.curveNewEthPair(1700000000);
  for (const fee of [0, 100, 250]) {
    const want = eden.curveQuoteBuy({ ...state, feeBps: fee }, '1000000000000000000', 600);
    for (const f of forms(fee)) for (const lt of forms(state.launchTime)) {
      const got = eden.curveQuoteBuy({ ...state, feeBps: f, launchTime: lt }, '1000000000000000000', 600);
      assert.deepEqual(got, want);
    }
  }
  const obs = (ts, a, b) => [
    { timestamp: ts(1000), tickA: a(-120), tickB: b(60) },
    { timestamp: ts(1600), tickA: a(30), tickB: b(-90) },
  ];
  const wantMean = eden.duelRoundMeanTick(obs(Number, Number, Number), 1000, 2000);
  for (const conv of [Number, BigInt, String]) {
    assert.deepEqual(eden.duelRoundMeanTick(obs(conv, conv, conv), 1000, 2000), wantMean);
  }
  // Observations that are not swaps (the creation seed, a hook buyback) move d but are not activity.
  const quiet = obs(Number, Number, Number).map((o) => ({ ...o, swap: false }));
  assert.deepEqual(eden.duelRoundMeanTick(quiet, 1000, 2000), { ...wantMean, winner: 'none', hadSwap: false });

  const NOW = 1800000000;
  const c0 = 1000000000n;
  const atShort = c0 - 76013n * 1800n;
  const atAnchor = atShort - 75000n * 12600n;
  const input = (conv) => ({
    now: conv(NOW), poolInitializedAt: conv(NOW - 30 * 86400), rootIsToken0: false,
    observations: [
      { secondsAgo: conv(0), tickCumulative: conv(c0) },
      { secondsAgo: conv(1800), tickCumulative: conv(atShort) },
      { secondsAgo: conv(14400), tickCumulative: conv(atAnchor) },
    ],
    ethUsd: { answer: '300000000000', decimals: conv(8), updatedAt: conv(NOW - 3600) },
  });
  const want = eden.rootPriceUsd(input(Number));
  assert.equal(want.priceUsd, '1499973749039178000');
  for (const conv of [BigInt, String]) assert.deepEqual(eden.rootPriceUsd(input(conv)), want);
  // A negative cumulative (signed field) in every form.
  const neg = (conv) => ({ ...input(conv), observations: input(conv).observations.map((o) => ({ ...o, tickCumulative: conv(-BigInt(o.tickCumulative)) })) });
  const wantNeg = eden.rootPriceUsd(neg(Number));
  for (const conv of [BigInt, String]) assert.deepEqual(eden.rootPriceUsd(neg(conv)), wantNeg);
});

test('arguments reject fractions, NaN, unsafe numbers and negatives where unsigned, naming the field', () => {
  for (const bad of [...BAD_NUMBERS, -1, '-1', -1n, '1.5', 'abc', '', true, undefined, null, {}]) {
    rejects(() => eden.trackRecordScore(bad, 0, '1', '1'), /^hits: /);
    rejects(() => eden.duelFirstClose(bad), /^startUnix: /);
    rejects(() => eden.rootPriceAnchorWindow(bad, 0), /^now: /);
    rejects(() => eden.curveQuoteBuy(eden.curveNewEthPair(0), '1', bad), /^secondsSinceLaunch: /);
  }
  for (const bad of [...BAD_NUMBERS, '1.5', 'abc', undefined]) {
    rejects(() => eden.sqrtPriceAtTick(bad), /^tick: /);
    rejects(() => eden.splitFromTick(bad), /^meanTick: /);
  }
  rejects(() => eden.duelFirstClose(2n ** 64n), /^startUnix: .*uint64/);
  rejects(() => eden.consensusState([], 1.5), /^quorum: /);
});

test('object fields reject fractions, NaN, unsafe numbers and negatives where unsigned, naming the field', () => {
  const state = eden.curveNewEthPair(0);
  for (const bad of [...BAD_NUMBERS, -1, '-1', -1n, '1.5', 'abc', true, null]) {
    rejects(() => eden.curveQuoteBuy({ ...state, feeBps: bad }, '1', 0), /^state\.feeBps: /);
  }
  rejects(() => eden.curveQuoteBuy({ ...state, feeBps: 2 ** 32 }, '1', 0), /^state\.feeBps: .*uint32/);
  const base = [{ timestamp: 1000, tickA: 1, tickB: 2 }];
  for (const bad of [...BAD_NUMBERS, -1]) {
    rejects(() => eden.duelRoundMeanTick([{ ...base[0], timestamp: bad }], 1000, 2000), /^observations\[0\]\.timestamp: /);
  }
  for (const bad of BAD_NUMBERS) {
    rejects(() => eden.duelRoundMeanTick([{ ...base[0], tickA: bad }], 1000, 2000), /^observations\[0\]\.tickA: /);
    rejects(() => eden.rootPriceUsd({
      now: 1800000000, poolInitializedAt: 0, rootIsToken0: false,
      observations: [{ secondsAgo: 0, tickCumulative: bad }],
      ethUsd: { answer: '1', decimals: 8, updatedAt: 0 },
    }), /^observations\[0\]\.tickCumulative: /);
  }
  rejects(() => eden.rootPriceUsd({
    now: 1800000000, poolInitializedAt: 0, rootIsToken0: false, observations: [],
    ethUsd: { answer: '1', decimals: 256, updatedAt: 0 },
  }), /^ethUsd\.decimals: /);
});

test('scoring: buildEpoch and verifyProjectScore take integer fields in every form, naming bad ones', () => {
  const projects = (conv) => [1, 2, 3].map((i) => ({
    project: '0x' + String(i).repeat(40),
    track: 'agents',
    features: [i * 1234, i * 37, i * 11, i * 997].map(String),
    claims: conv(5 + i),
    failed: conv(i % 2),
    verifiedOutput: String(i),
    ageSecs: conv(40 * 86400),
  }));
  const input = (conv) => ({ epoch: conv(3), tracks: [eden.trackPreset('agents')], projects: projects(conv) });
  const want = eden.buildEpoch(input(Number));
  // buildEpoch's input crosses as JSON, so BigInts are out; numbers and strings agree.
  assert.deepEqual(eden.buildEpoch(input(String)), want);
  const p = projects(Number)[1];
  const { project, ...data } = p;
  const report = eden.verifyProjectScore(want, project, data, '');
  for (const conv of [BigInt, String]) {
    const d = { ...data, claims: conv(data.claims), failed: conv(data.failed), ageSecs: conv(data.ageSecs) };
    assert.deepEqual(eden.verifyProjectScore(want, project, d, ''), report);
  }
  for (const bad of [1.5, -1, '-1', 'x']) {
    const inp = input(Number);
    inp.projects[1].claims = bad;
    rejects(() => eden.buildEpoch(inp), /^projects\[1\]\.claims: /);
    rejects(() => eden.verifyProjectScore(want, project, { ...data, ageSecs: bad }, ''), /^inputs\.ageSecs: /);
  }
  for (const bad of [NaN, 2 ** 53]) {
    rejects(() => eden.verifyProjectScore(want, project, { ...data, failed: bad }, ''), /^inputs\.failed: /);
  }
});
