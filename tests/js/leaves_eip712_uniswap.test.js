// Node tests of the JS API for protocol leaves (C5), the EIP-712 EpochRoot signature (C6) and the
// Uniswap math (A5): leaves against @openzeppelin/merkle-tree, the EIP-712 digest against an
// independent computation (keccak + ABI encoding) and signatures made with secp256k1 in JS.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { StandardMerkleTree } = require('@openzeppelin/merkle-tree');
// Dependencies of @openzeppelin/merkle-tree, hence installed with it.
const { keccak256 } = require('ethereum-cryptography/keccak');
const { secp256k1 } = require('ethereum-cryptography/secp256k1');
const { utf8ToBytes, bytesToHex, hexToBytes, concatBytes } = require('ethereum-cryptography/utils');
const { encode } = require('@metamask/abi-utils');

const eden = require('../../core/pkg-node');

const hex = (b) => '0x' + bytesToHex(b);
const T_Q = hex(keccak256(utf8ToBytes('eden.leaf.quality')));
const T_S = hex(keccak256(utf8ToBytes('eden.leaf.systematic')));
const QUALITY_ENCODING = ['bytes32', 'address', 'uint256', 'address', 'address', 'bytes32', 'uint256', 'uint8', 'bytes32'];

// Deterministic pseudo-random bytes (xorshift32), so failures reproduce.
let seed = 0xed3n;
function randByte() {
  seed ^= (seed << 13n) & 0xffffffffn;
  seed ^= seed >> 17n;
  seed ^= (seed << 5n) & 0xffffffffn;
  return Number(seed & 0xffn);
}
const randBytes = (n) => Uint8Array.from({ length: n }, randByte);
const randHex = (n) => hex(randBytes(n));
const randUint = (bytes) => BigInt(randHex(bytes)).toString();

test('scoreLeaf, qualityLeaf and systematicLeaf equal OpenZeppelin leafHash', () => {
  for (let i = 0; i < 200; i++) {
    const project = randHex(20);
    const score = randUint(1 + (i % 32));
    const s = [project, score];
    assert.equal(eden.scoreLeaf(project, score), StandardMerkleTree.of([s], ['address', 'uint256']).leafHash(s));
    const h = [T_S, project, score];
    assert.equal(
      eden.systematicLeaf(project, score),
      StandardMerkleTree.of([h], ['bytes32', 'address', 'uint256']).leafHash(h),
    );
    const thesis = randHex(32);
    const matched = i % 5 === 0 ? '0x' + '00'.repeat(32) : randHex(32);
    const verdict = i % 4;
    const grade = {
      scorerRegistry: randHex(20), scoreId: i * 7919, scorer: randHex(20), project,
      thesisHash: thesis, qualityWad: score, verdict, matchedThesis: matched,
    };
    const q = [T_Q, grade.scorerRegistry, String(grade.scoreId), grade.scorer, project, thesis, score, verdict, matched];
    const expected = StandardMerkleTree.of([q], QUALITY_ENCODING).leafHash(q);
    assert.equal(eden.qualityLeaf(grade), expected);
    assert.equal(eden.qualityLeaf({ ...grade, verdict: String(verdict), scoreId: String(grade.scoreId) }), expected);
  }
});

test('leaf inputs are validated', () => {
  const p = '0x' + '11'.repeat(20);
  const b = '0x' + '22'.repeat(32);
  assert.throws(() => eden.scoreLeaf('0x1234', '1'), /project/);
  assert.throws(() => eden.scoreLeaf(p, '-1'), /scoreWad/);
  assert.throws(() => eden.scoreLeaf(p, '1e18'), /scoreWad/);
  assert.throws(() => eden.systematicLeaf(p, (2n ** 256n).toString()), /scoreWad/);
  const g = { scorerRegistry: p, scoreId: 1, scorer: p, project: p, thesisHash: b, qualityWad: '1', verdict: 0, matchedThesis: b };
  eden.qualityLeaf(g);
  assert.throws(() => eden.qualityLeaf({ ...g, verdict: 4 }), /verdict: 4/);
  assert.throws(() => eden.qualityLeaf({ ...g, verdict: 1.5 }), /verdict/);
  assert.throws(() => eden.qualityLeaf({ ...g, thesisHash: '0x12' }), /thesisHash/);
  assert.throws(() => eden.qualityLeaf({ ...g, matchedThesis: 'zz' }), /matchedThesis/);
  assert.throws(() => eden.qualityLeaf({ ...g, scorer: '0x12' }), /scorer/);
  assert.throws(() => eden.qualityLeaf({ ...g, scoreId: -1 }), /scoreId/);
});

// --- EIP-712 (C6) ---------------------------------------------------------------------------

function digestByHand(domain, message) {
  const domainType = keccak256(
    utf8ToBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
  );
  const sep = keccak256(
    encode(
      ['bytes32', 'bytes32', 'bytes32', 'uint256', 'address'],
      [
        domainType,
        keccak256(utf8ToBytes(domain.name)),
        keccak256(utf8ToBytes(domain.version)),
        BigInt(domain.chainId),
        domain.verifyingContract,
      ],
    ),
  );
  const typeHash = keccak256(utf8ToBytes('EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)'));
  const structHash = keccak256(
    encode(
      ['bytes32', 'uint64', 'bytes32', 'bytes32', 'address', 'uint64'],
      [typeHash, BigInt(message.epoch), message.root, message.inputsRoot, message.proposer, BigInt(message.expiry)],
    ),
  );
  return keccak256(concatBytes(hexToBytes('1901'), sep, structHash));
}

function sign(digest, privateKey) {
  const sig = secp256k1.sign(digest, privateKey); // low-s, RFC 6979
  return {
    r: sig.r,
    s: sig.s,
    v: 27 + sig.recovery,
    hex: '0x' + sig.r.toString(16).padStart(64, '0') + sig.s.toString(16).padStart(64, '0') + (27 + sig.recovery).toString(16),
  };
}

const addressOf = (privateKey) => hex(keccak256(secp256k1.getPublicKey(privateKey, false).slice(1)).slice(12));

const DOMAIN = { name: 'Eden', version: '1', chainId: 8453, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' };
const MESSAGE = {
  epoch: 7, root: '0x' + '11'.repeat(32), inputsRoot: '0x' + '22'.repeat(32),
  proposer: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', expiry: 1700000000,
};

test('epochRootSigningHash: known vector and independent computation', () => {
  // Same vector as the Rust unit test (eip712::tests).
  assert.equal(
    eden.epochRootSigningHash(DOMAIN, MESSAGE),
    '0x8c79812eb7fa954b51fc606b63ba051719ae7d2efed2d47b63421583eb5f6f5e',
  );
  for (let i = 0; i < 50; i++) {
    const domain = {
      name: i % 3 ? 'Eden' : 'Other',
      version: i % 2 ? '1' : '2',
      chainId: BigInt(randHex(8)).toString(),
      verifyingContract: randHex(20),
    };
    const message = {
      epoch: BigInt(randHex(8)).toString(),
      root: randHex(32),
      inputsRoot: randHex(32),
      proposer: randHex(20),
      expiry: BigInt(randHex(8)).toString(),
    };
    assert.equal(eden.epochRootSigningHash(domain, message), hex(digestByHand(domain, message)));
  }
});

test('numbers may be JS numbers, decimal strings or BigInts', () => {
  const want = eden.epochRootSigningHash(DOMAIN, MESSAGE);
  assert.equal(eden.epochRootSigningHash({ ...DOMAIN, chainId: '8453' }, { ...MESSAGE, epoch: '7', expiry: 1700000000n }), want);
  assert.equal(eden.epochRootSigningHash({ ...DOMAIN, chainId: 8453n }, { ...MESSAGE, epoch: 7n }), want);
  assert.throws(() => eden.epochRootSigningHash({ ...DOMAIN, chainId: 1.5 }, MESSAGE), /chainId/);
  assert.throws(() => eden.epochRootSigningHash({ ...DOMAIN, chainId: 2 ** 60 }, MESSAGE), /chainId/);
  assert.throws(() => eden.epochRootSigningHash(DOMAIN, { ...MESSAGE, epoch: (2n ** 64n).toString() }), /epoch/);
  assert.throws(() => eden.epochRootSigningHash(DOMAIN, { ...MESSAGE, expiry: -1 }), /expiry/);
  assert.throws(() => eden.epochRootSigningHash(DOMAIN, { ...MESSAGE, root: '0x11' }), /root/);
  assert.throws(() => eden.epochRootSigningHash({ ...DOMAIN, salt: '0x' + '00'.repeat(32) }, MESSAGE), /salt/);
  const { verifyingContract, ...noContract } = DOMAIN;
  assert.throws(() => eden.epochRootSigningHash(noContract, MESSAGE), /verifyingContract/);
});

test('recoverEpochRootSigner recovers the JS signer, both v conventions', () => {
  for (let i = 0; i < 20; i++) {
    const key = randBytes(32); // seeded; valid with overwhelming probability (< n, non-zero)
    const message = { ...MESSAGE, epoch: i, root: randHex(32) };
    const sig = sign(digestByHand(DOMAIN, message), key);
    const signer = eden.recoverEpochRootSigner(DOMAIN, message, sig.hex);
    assert.equal(signer.toLowerCase(), addressOf(key));
    assert.match(signer, /^0x[0-9a-fA-F]{40}$/);
    const v01 = sig.hex.slice(0, -2) + (sig.v - 27).toString(16).padStart(2, '0');
    // v in {0, 1} is refused, as the registry (OpenZeppelin ECDSA) refuses it on-chain.
    assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, message, v01), /add 27/);
  }
});

test('recoverEpochRootSigner rejects high-s, bad v and bad length', () => {
  const key = hexToBytes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  const sig = sign(digestByHand(DOMAIN, MESSAGE), key);
  assert.equal(eden.recoverEpochRootSigner(DOMAIN, MESSAGE, sig.hex), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  const n = secp256k1.CURVE.n;
  const twin = '0x' + sig.r.toString(16).padStart(64, '0') + (n - sig.s).toString(16).padStart(64, '0') + (sig.v === 27 ? '1c' : '1b');
  assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, MESSAGE, twin), /high-s/);
  for (const v of ['02', '1a', '1d', '25', 'ff']) {
    assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, MESSAGE, sig.hex.slice(0, -2) + v), /v = /);
  }
  assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, MESSAGE, sig.hex.slice(0, -2)), /65 bytes/);
  assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, MESSAGE, sig.hex + '00'), /65 bytes/);
  assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, MESSAGE, sig.hex.slice(2)), /0x/);
  assert.throws(() => eden.recoverEpochRootSigner(DOMAIN, MESSAGE, '0xzz'), /signature/);
});

// --- Uniswap (A5) ---------------------------------------------------------------------------

const LOW = '0x1000000000000000000000000000000000000000';
const HIGH = '0x2000000000000000000000000000000000000000';
const E18 = '1000000000000000000';

test('sqrtPriceAtTick and tickAtSqrtPrice', () => {
  assert.equal(eden.sqrtPriceAtTick(0), (2n ** 96n).toString());
  assert.equal(eden.sqrtPriceAtTick(-887272), '4295128739');
  assert.equal(eden.sqrtPriceAtTick('887272'), '1461446703485210103287273052203988822378723970342');
  assert.equal(eden.sqrtPriceAtTick(-887271n), '4295343490');
  assert.throws(() => eden.sqrtPriceAtTick(887273), /tick/);
  assert.throws(() => eden.sqrtPriceAtTick(1.5), /tick/);
  assert.throws(() => eden.sqrtPriceAtTick('abc'), /tick/);
  assert.throws(() => eden.sqrtPriceAtTick(2 ** 32), /tick/);
  assert.equal(eden.tickAtSqrtPrice('4295128739'), -887272);
  assert.equal(eden.tickAtSqrtPrice((2n ** 96n).toString()), 0);
  assert.equal(eden.tickAtSqrtPrice((2n ** 96n - 1n).toString()), -1);
  assert.throws(() => eden.tickAtSqrtPrice('1461446703485210103287273052203988822378723970342'), /sqrtPriceX96/);
  for (let t = -887272; t <= 887272; t += 7919) {
    assert.equal(eden.tickAtSqrtPrice(eden.sqrtPriceAtTick(t)), t);
  }
});

test('quoteAtTick: parity, hand-checkable ticks, both branches and orders', () => {
  assert.equal(eden.quoteAtTick(0, E18, LOW, HIGH), E18);
  assert.equal(eden.quoteAtTick(0, E18, HIGH, LOW), E18);
  assert.equal(eden.quoteAtTick(1, E18, LOW, HIGH), '1000100000000000000');
  assert.equal(eden.quoteAtTick(1, E18, HIGH, LOW), '999900009999000099');
  // Same vectors as the Rust unit tests (independent big-integer implementation).
  assert.equal(eden.quoteAtTick(-230259, E18, LOW, HIGH), '100110275');
  assert.equal(eden.quoteAtTick(-230259, E18, HIGH, LOW), '9988984589490329850519953454');
  assert.equal(eden.quoteAtTick(443637, E18, LOW, HIGH), '18447895316168813300129320530133980662'); // > uint128 branch
  assert.equal(eden.quoteAtTick(887272, E18, LOW, HIGH), '340256786836388094070642339899681172762184831912720469415');
  assert.equal(eden.quoteAtTick(-887272, E18, HIGH, LOW), '340256786698763678858396856460488307819979090561464864775');
  assert.throws(() => eden.quoteAtTick(0, (2n ** 128n).toString(), LOW, HIGH), /baseAmount/);
  assert.throws(() => eden.quoteAtTick(0, E18, '0x12', HIGH), /baseToken/);
  assert.throws(() => eden.quoteAtTick(-887273, E18, LOW, HIGH), /tick/);
});

test('arithmeticMeanTick rounds toward negative infinity', () => {
  assert.equal(eden.arithmeticMeanTick(0, 3001, 300), 10);
  assert.equal(eden.arithmeticMeanTick(0, -3000, 300), -10);
  assert.equal(eden.arithmeticMeanTick(0, -3001, 300), -11);
  assert.equal(eden.arithmeticMeanTick('-69077700', '-69146777', '300'), -231);
  assert.equal(eden.arithmeticMeanTick(10n ** 15n, 10n ** 15n - 300n, 300), -1);
  assert.throws(() => eden.arithmeticMeanTick(0, 1, 0), /seconds/);
  assert.throws(() => eden.arithmeticMeanTick(0, 887273 * 300, 300), /mean tick/);
  assert.throws(() => eden.arithmeticMeanTick(0, 1, -5), /seconds/);
});

test('stockPriceWad and twapPriceWad for both token orders', () => {
  assert.equal(eden.stockPriceWad(-230259, true), '100110275000000000000');
  assert.equal(eden.stockPriceWad(230259, false), '100110275000000000000');
  assert.equal(eden.stockPriceWad(0, true), '1000000000000000000000000000000');
  const p = Number(BigInt(eden.stockPriceWad(-230271, true)) / 10n ** 12n) / 1e6;
  assert.ok(Math.abs(p - 100) < 0.01, String(p));
  assert.throws(() => eden.stockPriceWad(0, 'yes'), /stockIsToken0/);
  assert.throws(() => eden.stockPriceWad(887273, true), /avgTick/);
  const start = 5_000_000_000;
  assert.equal(eden.twapPriceWad(start, start - 230259 * 300, 300, true), '100110275000000000000');
  assert.equal(eden.twapPriceWad(start, start - 230259 * 300 - 1, 300, true), eden.stockPriceWad(-230260, true));
});
