// Node tests of the JS API for the agent call ledger (A1–A4): trackRecordScore against a BigInt
// reference (A1 seed examples and random inputs), consensusState against a BigInt reference (A4),
// callOutcome (A3), consensusBucket / revealRoundNow (A4) and callCommitment against
// keccak256(abi.encode(...)) computed independently with @metamask/abi-utils.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
// Dependencies of @openzeppelin/merkle-tree, hence installed with it.
const { keccak256 } = require('ethereum-cryptography/keccak');
const { bytesToHex } = require('ethereum-cryptography/utils');
const { encode } = require('@metamask/abi-utils');

const eden = require('../../core/pkg-node');

const WAD = 10n ** 18n;
const MAX = 2n ** 256n - 1n;

// Deterministic pseudo-random BigInts (xorshift32), so failures reproduce.
let seed = 0xca11n;
function rand32() {
  seed ^= (seed << 13n) & 0xffffffffn;
  seed ^= seed >> 17n;
  seed ^= (seed << 5n) & 0xffffffffn;
  return seed;
}
function randBits(bits) {
  let x = 0n;
  for (let i = 0; i < bits; i += 32) x = (x << 32n) | rand32();
  return x & ((1n << BigInt(bits)) - 1n);
}
const randHex = (bytes) => '0x' + randBits(bytes * 8).toString(16).padStart(bytes * 2, '0');

const scoreRef = (h, m, stake, min) => (h * h * stake * WAD) / (min * (h + m + 1n));

test('trackRecordScore reproduces the A1 seed examples exactly', () => {
  const s = (h, m, stake = 100n * WAD, min = 100n * WAD) => eden.trackRecordScore(h, m, stake.toString(), min.toString());
  assert.equal(s(1, 0), '500000000000000000');
  assert.equal(s(2, 0), '1333333333333333333');
  assert.equal(s(10, 0), '9090909090909090909');
  assert.equal(s(14, 6), '9333333333333333333');
  assert.equal(s(14, 6, 200n * WAD), '18666666666666666666');
  // Counts as numbers, BigInts or decimal strings.
  assert.equal(eden.trackRecordScore(14n, '6', '2', '1'), '18666666666666666666');
});

test('trackRecordScore equals the BigInt formula, and errors instead of overflowing', () => {
  for (let i = 0; i < 300; i++) {
    const h = randBits(i % 2 ? 64 : 8);
    const m = randBits(i % 3 ? 64 : 8);
    const stake = randBits(1 + (i % 256));
    const min = randBits(1 + ((i * 7) % 256)) || 1n;
    const want = scoreRef(h, m, stake, min);
    if (want > MAX) {
      assert.throws(() => eden.trackRecordScore(h.toString(), m.toString(), stake.toString(), min.toString()), /256 bits/);
    } else {
      assert.equal(eden.trackRecordScore(h.toString(), m.toString(), stake.toString(), min.toString()), want.toString());
    }
  }
  assert.throws(() => eden.trackRecordScore(1, 0, '1', '0'), /minStake/);
  assert.throws(() => eden.trackRecordScore(-1, 0, '1', '1'), /hits/);
  assert.throws(() => eden.trackRecordScore(1.5, 0, '1', '1'), /hits/);
  assert.throws(() => eden.trackRecordScore(0, '18446744073709551616', '1', '1'), /misses/);
  assert.throws(() => eden.trackRecordScore(0, 0, '1e18', '1'), /stake/);
  assert.equal(eden.callVoteWeight(1, 0, '5', '5'), '1500000000000000000');
});

function consensusRef(votes, quorum, bps) {
  let up = 0n;
  let down = 0n;
  for (const v of votes) v.up ? (up += BigInt(v.weight)) : (down += BigInt(v.weight));
  const total = up + down;
  const lead = up > down ? up : down;
  const direction = up > down ? 'up' : down > up ? 'down' : 'none';
  const reached = direction !== 'none' && votes.length >= quorum && lead * 10000n >= BigInt(bps) * total;
  const strengthBps = total === 0n ? 0 : Number((lead * 10000n) / total);
  return { reached, direction, strengthBps, upWeight: up.toString(), downWeight: down.toString(), voters: votes.length };
}

test('consensusState: quorum, threshold, strength, ties', () => {
  const v = (up, w) => ({ up, weight: w.toString() });
  // Three fresh agents up: consensus at 100 %.
  assert.deepEqual(eden.consensusState([v(true, WAD), v(true, WAD), v(true, WAD)], 3, 6667), {
    reached: true, direction: 'up', strengthBps: 10000, upWeight: '3000000000000000000', downWeight: '0', voters: 3,
  });
  // Two to one is 66.66 %: below 6,667 bps; reached at 6,666.
  assert.equal(eden.consensusState([v(true, WAD), v(true, WAD), v(false, WAD)], 3, 6667).reached, false);
  assert.equal(eden.consensusState([v(true, WAD), v(true, WAD), v(false, WAD)], 3, 6666).reached, true);
  // Defaults: quorum 3, 6,667 bps.
  assert.equal(eden.consensusState([v(false, WAD), v(false, WAD)]).reached, false);
  // A tie: no direction, no consensus, even at threshold 0.
  const tie = eden.consensusState([v(true, WAD), v(false, WAD)], 0, 0);
  assert.equal(tie.direction, 'none');
  assert.equal(tie.reached, false);
  assert.deepEqual(eden.consensusState([]), consensusRef([], 3, 6667));
  for (let i = 0; i < 200; i++) {
    const n = Number(rand32() % 8n);
    const votes = Array.from({ length: n }, () => v((rand32() & 1n) === 1n, randBits(i % 2 ? 70 : 8)));
    const quorum = Number(rand32() % 5n);
    const bps = Number(rand32() % 10001n);
    assert.deepEqual(eden.consensusState(votes, quorum, bps), consensusRef(votes, quorum, bps));
  }
  assert.throws(() => eden.consensusState([], 3, 10001), /10000/);
  assert.throws(() => eden.consensusState([{ up: true, weight: 5 }], 3, 6667), /votes/);
  assert.throws(() => eden.consensusState([v(true, MAX), v(false, 1)], 3, 6667), /votes\[1\]/);
});

test('callOutcome', () => {
  assert.equal(eden.callOutcome('up', '100', '101'), 'hit');
  assert.equal(eden.callOutcome('up', '100', '99'), 'miss');
  assert.equal(eden.callOutcome('down', '100', '99'), 'hit');
  assert.equal(eden.callOutcome('down', '100', '101'), 'miss');
  assert.equal(eden.callOutcome('up', '100', '100'), 'void');
  assert.equal(eden.callOutcome('down', '100', null), 'void');
  assert.equal(eden.callOutcome('down', '100'), 'void');
  assert.throws(() => eden.callOutcome('flat', '1', '2'), /direction/);
  // A3 band (second review): inside the band a move is void; the band's threshold rounds up.
  assert.equal(eden.callOutcome('up', '1000000', '1002999', 3000), 'void');
  assert.equal(eden.callOutcome('up', '1000000', '1003000', 3000), 'hit');
  assert.equal(eden.callOutcome('down', '1000000', '1003000', '3000'), 'miss');
  assert.equal(eden.callOutcome('up', '1000001', '1003001', 3000), 'void');
  assert.equal(eden.callOutcome('up', '100', '101', 0), 'hit');
  assert.throws(() => eden.callOutcome('up', '1', '2', -1), /bandPips/);
  assert.throws(() => eden.callOutcome('up', '1', 2), /exitWad/);
});

test('consensusBucket and revealRoundNow', () => {
  assert.equal(eden.consensusBucket(7200, 3600), 2);
  assert.equal(eden.consensusBucket(7199, 3600), 1);
  assert.equal(eden.revealRoundNow(36000, 3600), 11);
  assert.equal(eden.revealRoundNow('39600', 3600n), 12);
  for (let i = 0; i < 100; i++) {
    const now = Number(randBits(32));
    const window = Number(randBits(16)) + 1;
    assert.equal(eden.revealRoundNow(now, window), Math.floor((now + window) / window));
    assert.equal(eden.consensusBucket(now + window, window), eden.revealRoundNow(now, window));
  }
  assert.throws(() => eden.consensusBucket(1, 0), /window/);
  assert.throws(() => eden.revealRoundNow('18446744073709551615', 1), /64 bits/);
});

test('callCommitment equals keccak256(abi.encode(agent, asset, uint8 direction, uint64 window, salt))', () => {
  const a = '0x' + '11'.repeat(20);
  const b = '0x' + '22'.repeat(20);
  const s = '0x' + '33'.repeat(32);
  assert.equal(eden.callCommitment(a, b, 'up', 3600, s), '0x0d7e0aa46e221fe9c6e1520659104579c6a623a9f013fd12d7b6787947108fa1');
  for (let i = 0; i < 100; i++) {
    const agent = randHex(20);
    const asset = randHex(20);
    const up = (rand32() & 1n) === 1n;
    const window = randBits(40);
    const salt = randHex(32);
    const want = '0x' + bytesToHex(keccak256(encode(['address', 'address', 'uint8', 'uint64', 'bytes32'], [agent, asset, up ? 1 : 0, window, salt])));
    assert.equal(eden.callCommitment(agent, asset, up ? 'up' : 'down', window.toString(), salt), want);
    // The same words as (address, address, bool, uint256, bytes32).
    assert.equal(want, '0x' + bytesToHex(keccak256(encode(['address', 'address', 'bool', 'uint256', 'bytes32'], [agent, asset, up, window, salt]))));
  }
  assert.throws(() => eden.callCommitment('0x11', b, 'up', 1, s), /agent/);
  assert.throws(() => eden.callCommitment(a, b, 'up', 1, '0x12'), /salt/);
});
