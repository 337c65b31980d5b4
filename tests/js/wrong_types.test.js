// Every export of the JS API, called with a value of the wrong JavaScript type in each parameter,
// throws a JS error (never a WebAssembly trap such as "memory access out of bounds", which leaves
// the instance unusable). A parameter declared `IntegerLike` (`bigint | string | number`), `string` or `boolean`
// in the package's TypeScript declarations throws a TypeError naming the parameter when it gets
// a value of another type, and an integer parameter accepts all three forms alike.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const eden = require('../../core/pkg-node');
const dts = fs.readFileSync(path.join(__dirname, '../../core/pkg-node/eden_core.d.ts'), 'utf8');

const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

// `export function name(a: T, b: U): R;` → [{name, params: [{name, type}]}]
function declaredFunctions() {
  const out = [];
  for (const m of dts.matchAll(/^export function (\w+)\(([^)]*)\)/gm)) {
    const params = m[2].trim() === '' ? [] : m[2].split(/,\s*(?=\w+\??:)/).map((p) => {
      const i = p.indexOf(':');
      return { name: p.slice(0, i).replace('?', '').trim(), type: p.slice(i + 1).trim() };
    });
    out.push({ name: m[1], params });
  }
  return out;
}

const INT = 'IntegerLike';
const kind = (t) => {
  if (t === INT || t.startsWith(INT + ' |')) return 'int';
  if (t === 'string' || t.startsWith('string | null')) return 'text';
  if (t === 'boolean' || t.startsWith('boolean | null')) return 'bool';
  return 'other';
};
const optional = (t) => t.includes('undefined');
// A value of the right type (and a valid one), so that the parameters before the one under test
// pass their checks.
const ADDRESS = '0x' + '11'.repeat(20);
const HASH = '0x' + '22'.repeat(32);
const TEXT = {
  project: ADDRESS, agent: ADDRESS, asset: ADDRESS, token: ADDRESS, scorer: ADDRESS,
  quote_currency: ADDRESS, salt: HASH, salt_hex: HASH, root: HASH, leafHash: HASH, onchainRoot: HASH,
  direction: 'up', winner: 'A', name: 'agents', thesis_text: 'a thesis',
};
const valid = { int: '1', text: '', bool: false, other: undefined };
const validFor = (q) => (kind(q.type) === 'text' ? TEXT[q.name] ?? '' : valid[kind(q.type)]);
const wrong = {
  int: [true, {}, [], () => 1],
  text: [7, 7n, true, {}],
  bool: [1, 'true', 0n, {}],
};

const fns = declaredFunctions();

test('the declarations list every exported function', () => {
  assert.ok(fns.length >= 60, `only ${fns.length} functions declared`);
  for (const f of fns) assert.equal(typeof eden[f.name], 'function', f.name);
});

test('a wrong type in a typed parameter is a TypeError naming it', () => {
  let checked = 0;
  for (const f of fns) {
    f.params.forEach((p, i) => {
      const k = kind(p.type);
      if (k === 'other') return;
      for (const bad of wrong[k]) {
        const args = f.params.map((q) => validFor(q));
        args[i] = bad;
        assert.throws(
          () => eden[f.name](...args),
          (e) => e instanceof TypeError && e.message.startsWith(camel(p.name) + ':'),
          `${f.name}(${p.name} = ${typeof bad}) should throw a TypeError naming ${camel(p.name)}`,
        );
        checked += 1;
      }
      if (!optional(p.type)) {
        const args = f.params.map((q) => validFor(q));
        args[i] = undefined;
        assert.throws(() => eden[f.name](...args), (e) => e instanceof TypeError, `${f.name}: missing ${p.name}`);
      }
    });
  }
  assert.ok(checked > 200, `only ${checked} cases`);
});

test('no wrong value traps the instance, in any parameter of any export', () => {
  const values = [undefined, null, true, 1.5, -1, 2 ** 60, 10n ** 80n, '', 'x', '0x', {}, [], [1], { a: 1 }];
  for (const f of fns) {
    for (let i = 0; i < Math.max(f.params.length, 1); i++) {
      for (const v of values) {
        const args = f.params.map((q, j) => (j < i ? valid[kind(q.type)] : '0'));
        args[i] = v;
        try {
          eden[f.name](...args);
        } catch (e) {
          assert.ok(!(e instanceof WebAssembly.RuntimeError), `${f.name} arg ${i} = ${String(v)}: ${e.message}`);
          assert.ok(e instanceof Error, `${f.name} threw a non-Error`);
        }
      }
    }
  }
  // The instance still works.
  assert.equal(eden.smoothScore('0', 10n ** 18n), '400000000000000000');
});

test('an integer parameter takes a BigInt, a decimal string or a safe number alike', () => {
  const wad = 10n ** 18n;
  for (const g of [wad, String(wad)]) assert.equal(eden.smoothScore(0, g), '400000000000000000');
  assert.equal(eden.smoothScore(0n, 1000), eden.smoothScore('0', '1000'));
  assert.throws(() => eden.smoothScore(0.5, 1), (e) => e instanceof Error && /previousWad/.test(e.message));
  assert.equal(eden.duelEthPriceTick(-5n, true), eden.duelEthPriceTick('-5', true));
});
