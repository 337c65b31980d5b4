// The package's TypeScript declarations: derived from core's own types (tsify), each declared
// once, every export typed (no `any` in a signature), and valid TypeScript a strict consumer can
// compile against. Also: input errors name the path of the bad field inside an object.
// Run: node --test tests/js/ (after building core/pkg and core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.join(__dirname, '../..');
const eden = require('../../core/pkg-node');
const dtsPath = (pkg) => path.join(root, 'core', pkg, 'eden_core.d.ts');
const dts = fs.readFileSync(dtsPath('pkg-node'), 'utf8');
const tsc = path.join(root, 'node_modules/.bin/tsc');

test('every exported function has typed parameters and result (no any)', () => {
  const sigs = [...dts.matchAll(/^export function (\w+)\((.*)\): (.*);$/gm)];
  assert.ok(sigs.length >= 60, `only ${sigs.length} exports`);
  const untyped = sigs.filter((m) => /\bany\b/.test(m[2]) || /\bany\b/.test(m[3])).map((m) => m[1]);
  assert.deepEqual(untyped, []);
});

test('each type is declared once', () => {
  const names = [...dts.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
  const seen = new Set();
  const twice = names.filter((n) => (seen.has(n) ? true : (seen.add(n), false)));
  assert.deepEqual(twice, []);
  for (const t of ['CurveState', 'BuyQuote', 'EpochBundle', 'EpochInput', 'ScoreCheck', 'HumanCheck',
    'ConsensusState', 'PoolEvent', 'AllocationReport', 'ChainPool', 'QualityLeaf', 'RoundMean']) {
    assert.ok(names.includes(t), `${t} is not declared`);
  }
});

test('the declarations compile under tsc --strict, and a typed consumer compiles against them', () => {
  for (const pkg of ['pkg-node', 'pkg']) {
    execFileSync(tsc, ['--noEmit', '--strict', '--lib', 'esnext,dom', dtsPath(pkg)], { stdio: 'pipe' });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eden-ts-'));
  try {
    const consumer = path.join(dir, 'consumer.ts');
    fs.writeFileSync(consumer, `
import type { CurveState, BuyResult, ConsensusState, EpochBundle, RoundMean } from ${JSON.stringify(dtsPath('pkg-node').replace(/\.d\.ts$/, ''))};
import * as eden from ${JSON.stringify(dtsPath('pkg-node').replace(/\.d\.ts$/, ''))};
const s: CurveState = eden.curveNewEthPair(0);
const r: BuyResult = eden.curveBuy(s, 10n ** 18n, 60, '0');
const tokens: string = r.tokensOut;
const fee: number = r.state.feeBps;
const c: ConsensusState = eden.consensusState([{ up: true, weight: '1' }], 3, 6667);
const side: 'up' | 'down' | 'none' = c.direction;
const m: RoundMean = eden.duelRoundMeanTick([{ timestamp: 0, tickA: 1, tickB: 2 }], 0, 10);
const b: EpochBundle | null = null;
export { tokens, fee, side, m, b };
`);
    execFileSync(tsc, ['--noEmit', '--strict', '--target', 'es2020', '--lib', 'esnext', '--module', 'commonjs', consumer], { stdio: 'pipe' });
    // A type error in the consumer is caught (the check is not vacuous).
    fs.writeFileSync(consumer, `import * as eden from ${JSON.stringify(dtsPath('pkg-node').replace(/\.d\.ts$/, ''))};
const n: number = eden.curveNewEthPair(0).virtualQuote;
export { n };
`);
    assert.throws(() => execFileSync(tsc, ['--noEmit', '--strict', '--target', 'es2020', '--lib', 'esnext', '--module', 'commonjs', consumer], { stdio: 'pipe' }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('an input error names the path of the bad field', () => {
  const rejects = (f, re) => assert.throws(f, (e) => e instanceof Error && re.test(e.message), `expected ${re}`);
  const a = '0x' + '11'.repeat(20);
  const alloc = {
    distributor: a, chainId: 31337, token: a, asset: '0x' + '00'.repeat(20), epoch: 1, total: '100',
    balances: [{ account: '0x' + '22'.repeat(20), balance: '5' }],
  };
  assert.equal(eden.holderAllocation(alloc).allocations.length, 1);
  rejects(() => eden.holderAllocation({ ...alloc, balances: [{ account: '0x12', balance: '5' }] }), /^balances\[0\]\.account: /);
  rejects(() => eden.holderAllocation({ ...alloc, balances: [{ account: a, balance: 5 }] }), /^balances\[0\]\.balance: /);
  rejects(() => eden.holderAllocation({ ...alloc, exclusions: { escrows: ['nope'] } }), /^exclusions\.escrows\[0\]: /);
  rejects(() => eden.holderAllocation({ ...alloc, chainId: 1.5 }), /^chainId: /);
  rejects(() => eden.holderAllocation(7), /^input: /);
  rejects(() => eden.rewardEstimate({ rateWad: '1', weights: ['1', 'x'], quality: '1', multiplier: '1' }), /^weights\[1\]: /);
  const pool = { index: '0', totalWeight: '0', maxWeight: '0', dripAmount: '0', dripStart: 0, lastUpdate: 0 };
  assert.equal(eden.scorerOwedAt(pool, [], a, 0), '0');
  rejects(() => eden.scorerOwedAt({ ...pool, dripStart: -1 }, [], a, 0), /^pool\.dripStart: /);
  rejects(() => eden.scorerOwedAt(pool, [{ scorer: a, weight: '1', snapshot: '0', end: 'x' }], a, 0), /^positions\[0\]\.end: /);
  rejects(() => eden.rewardPoolSimulate(0, 500, [{ kind: 'mint', at: 1 }]), /^events\[0\]\.kind: unknown variant `mint`/);
  rejects(() => eden.rewardPoolSimulate(0, 500, [{ kind: 'fund', at: 1 }]), /^events\[0\]: missing field `amount`/);
  rejects(() => eden.duelRecordStreak({ a: -1 }, 'A'), /^streaks\.a: /);
  rejects(() => eden.duelBuybackBudget({ sqrtPriceX96: '1', liquidity: '1', feePips: 3000, tickSpacing: 1.5 }, '1', '1'), /^pool\.tickSpacing: /);
});
