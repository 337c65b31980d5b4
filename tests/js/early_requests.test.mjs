// The page's early requests (scripts/early-requests.mjs) against the hand-written example both encoders must write
// (tests/fixtures/early-requests.json; app/src/chain/rpc.rs checks the Rust side against the same file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { earlyScript, lensBody, lensCode, probeBody, LENS_ROWS, MULTICALL3 } from '../../scripts/early-requests.mjs';

const fx = JSON.parse(readFileSync(new URL('../fixtures/early-requests.json', import.meta.url), 'utf8'));
const code = lensCode(fileURLToPath(new URL('../..', import.meta.url)));

test('the probe is the same bytes the app writes', () => {
  assert.equal(probeBody(fx.multicall, fx.block), fx.probe);
  // The example's address is Multicall3's own, the default the loader uses as the app does.
  assert.equal(MULTICALL3, fx.multicall.toLowerCase());
  assert.ok(Array.isArray(JSON.parse(fx.probe)));
});

test("the launch list's first page is the same bytes the app writes", () => {
  assert.equal(LENS_ROWS, fx.rows);
  const want = fx.lens.replace('{code}', code).replace('{args}', fx.lensArgs);
  assert.equal(lensBody(code, fx.pad, fx.rows), want);
  assert.equal(JSON.parse(want).params[0].data.length, 2 + code.length - 2 + 5 * 64);
});

test('the loader script parses and carries both encoders', () => {
  const s = earlyScript(code, '/');
  assert.doesNotThrow(() => new Function(s));
  assert.ok(s.includes('function probeBody') && s.includes('function lensBody') && !s.includes('</script'));
});
