// Node tests of the JS API for human scores (C9, C10), scorer rewards (C11–C14), burns and the
// ROOT price (C15, C16), the creator share (C17) and holder payouts (C18): the seed examples,
// the fail-closed errors, and payout leaves/roots against @openzeppelin/merkle-tree.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { StandardMerkleTree } = require('@openzeppelin/merkle-tree');

const eden = require('../../core/pkg-node');

// Thousandths → WAD string.
const W = (milli) => (BigInt(milli) * 10n ** 15n).toString();
const POINTS = (p) => (BigInt(p) * 10n ** 18n).toString();

test('humanEnvelope reproduces the C9 seed example', () => {
  const r = eden.humanEnvelope(W(600), [
    { quality: W(800), multiplier: W(1000), submitted: W(700) },
    { quality: W(500), multiplier: W(500), submitted: W(560) },
    { quality: W(200), multiplier: W(1000), submitted: W(900) },
  ]);
  assert.equal(r.envelope, W(960));
  assert.equal(r.delta, W(64));
  assert.equal(r.score, '638400000000000000');
  assert.equal(r.counted, 2);
  const down = eden.humanEnvelope(W(500), [{ quality: W(1000), multiplier: W(1000), submitted: '0' }]);
  assert.equal(down.delta, '-200000000000000000');
  assert.equal(down.score, W(400));
  assert.throws(() => eden.humanEnvelope(W(1001), []), /sSys/);
  assert.throws(() => eden.humanEnvelope(W(500), [{ quality: W(2000), multiplier: W(1000), submitted: '0' }]), /theses\[0\]\.quality/);
});

test('preDataReplay reproduces the C10 seed example', () => {
  const path = eden.preDataReplay([
    { target: POINTS(80), quality: W(900), multiplier: W(1000) },
    { target: POINTS(60), quality: W(1000), multiplier: W(1000) },
    { target: POINTS(10), quality: W(500), multiplier: W(1000) },
  ], false);
  assert.deepEqual(path, [POINTS(18), POINTS(23), '20500000000000000000']);
  assert.throws(() => eden.preDataReplay([{ target: POINTS(101), quality: '0', multiplier: '0' }], true), /submissions\[0\]\.target/);
});

test('cappedShares reproduces the C13 seed example', () => {
  const r = eden.cappedShares([POINTS(40), POINTS(30), POINTS(45)], 500);
  assert.equal(r.denominator, POINTS(900));
  assert.deepEqual(r.shares, ['44444444444444444', '33333333333333333', '50000000000000000']);
  assert.equal(r.paid, '127777777777777777');
  assert.throws(() => eden.cappedShares(['1'], 0), /capBps/);
});

test('rewardEstimate and rewardPoolSimulate', () => {
  const e = eden.rewardEstimate({ rateWad: POINTS(1), weights: [POINTS(40), POINTS(30)], quality: W(900), multiplier: W(1000) });
  assert.equal(e.share, W(50));
  assert.equal(e.reward30d, '129600');
  const scorer = (i) => '0x' + i.toString(16).padStart(40, '0');
  const r = eden.rewardPoolSimulate(0, 500, [
    { kind: 'open', at: 0, scorer: scorer(1), quality: W(800), multiplier: W(1000) },
    { kind: 'open', at: 0, scorer: scorer(2), quality: W(600), multiplier: W(1000) },
    { kind: 'open', at: 0, scorer: scorer(3), quality: W(900), multiplier: W(1000) },
    { kind: 'fund', at: 0, amount: '604800000' },
    { kind: 'claim', at: 604800, scorer: scorer(1) },
  ]);
  assert.deepEqual(r.ledger, {
    funded: '604800000', paid: '26880000', owed: '50400000', undripped: '0', returned: '527520000', dust: '0',
  });
  assert.throws(() => eden.rewardPoolSimulate(10, 500, [{ kind: 'advance', at: 5 }]), /earlier/);
});

test('rootPriceUsd, rootForUsd and scoreBurnUsd (C15, C16)', () => {
  const NOW = 1800000000;
  const c0 = 1000000000n;
  const atShort = c0 - 76013n * 1800n;
  const atAnchor = atShort - 75000n * 12600n;
  const input = {
    now: NOW, poolInitializedAt: NOW - 30 * 86400, rootIsToken0: false,
    observations: [
      { secondsAgo: 0, tickCumulative: c0.toString() },
      { secondsAgo: 1800, tickCumulative: atShort.toString() },
      { secondsAgo: 14400, tickCumulative: atAnchor.toString() },
    ],
    ethUsd: { answer: '300000000000', decimals: 8, updatedAt: NOW - 3600 },
  };
  const p = eden.rootPriceUsd(input);
  assert.equal(p.shortTick, 76013);
  assert.equal(p.anchorTick, 75127);
  assert.equal(p.priceEth, '499991249679726');
  assert.equal(p.priceUsd, '1499973749039178000');
  assert.equal(eden.rootForUsd(POINTS(100), p.priceUsd), '66667833396455051977');
  assert.throws(() => eden.rootForUsd(POINTS(100), p.priceUsd, POINTS(66)), /out of bounds/);
  assert.throws(() => eden.rootPriceUsd({ ...input, ethUsd: { ...input.ethUsd, updatedAt: NOW - 90001 } }), /stale/);
  assert.throws(() => eden.rootPriceUsd({ ...input, ethUsd: { ...input.ethUsd, answer: '0' } }), /positive/);
  assert.throws(() => eden.rootPriceUsd({ ...input, observations: input.observations.slice(0, 2) }), /not covered/);
  assert.throws(() => eden.rootPriceUsd({ ...input, poolInitializedAt: NOW - 600 }), /not covered/);
  assert.equal(eden.rootPriceAnchorWindow(NOW, NOW - 7200), 7200);
  assert.equal(eden.scoreBurnUsd(), POINTS(100));
  assert.equal(eden.scoreBurnUsd(POINTS(1000)), POINTS(415));
});

test('creatorShare and creatorSplit (C17, placeholder params)', () => {
  assert.equal(eden.creatorShare(POINTS(50), true), W(300));
  assert.equal(eden.creatorShare(POINTS(50), false, { fUnverified: '0', ceiling: W(500) }), W(250));
  const s = eden.creatorSplit(POINTS(100), false, '1000', null);
  assert.equal(s.creatorAmount, '400');
  assert.equal(s.unearnedAmount, '0');
  assert.throws(() => eden.creatorShare(POINTS(101), true), /scorePoints/);
});

test('holderAllocation leaves equal OpenZeppelin leafHash (C18)', () => {
  const types = ['address', 'uint256', 'address', 'address', 'uint64', 'address', 'uint256'];
  const input = {
    distributor: '0x1111111111111111111111111111111111111111', chainId: 8453,
    token: '0x2222222222222222222222222222222222222222', asset: '0x0000000000000000000000000000000000000000',
    epoch: 42, total: '1000',
    balances: [
      { account: '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa', balance: '6' },
      { account: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', balance: '3' },
      { account: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC', balance: '1' },
      { account: '0x000000000000000000000000000000000000dEaD', balance: '1000' },
      { account: '0x3333333333333333333333333333333333333333', balance: '1000' },
    ],
    exclusions: { pool: '0x3333333333333333333333333333333333333333' },
  };
  const a = eden.holderAllocation(input);
  assert.equal(a.eligibleSupply, '10');
  assert.equal(a.excluded, 2);
  assert.deepEqual(a.allocations.map((x) => x.amount), ['600', '300', '100']);
  assert.equal(a.dust, '0');
  const values = a.allocations.map((x) => [input.distributor, '8453', input.token, input.asset, '42', x.account, x.amount]);
  const tree = StandardMerkleTree.of(values, types);
  a.allocations.forEach((x, i) => {
    assert.equal(x.leaf, tree.leafHash(values[i]));
    assert.deepEqual(x.proof, tree.getProof(i));
  });
  assert.equal(a.root, tree.root);
  assert.equal(eden.holderAllocation({ ...input, balances: [] }).root, null);
  assert.throws(() => eden.holderAllocation({ ...input, balances: [input.balances[0], input.balances[0]] }), /more than once/);
});
