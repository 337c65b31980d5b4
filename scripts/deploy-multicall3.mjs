// Puts Multicall3 at its canonical address (0xcA11bde05977b3631167028862bE2a173976CA11) on a local
// anvil chain, as every public chain has it, so the app batches its reads there too:
//
//   node scripts/deploy-multicall3.mjs --rpc-url http://127.0.0.1:8545
//
// The code is Multicall3 (mds1/multicall) as the viem package ships it (its creation code, npm `viem`,
// pinned in package.json); its runtime code is obtained with an eth_call of that creation code and set
// with anvil_setCode, so no transaction is sent and no deployer nonce (hence no Eden address) changes.
// Does nothing when the address already has code. Loopback nodes only.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';

const args = process.argv.slice(2);
const i = args.indexOf('--rpc-url');
const rpc = i >= 0 ? args[i + 1] : 'http://127.0.0.1:8545';
if (!/^http:\/\/(127\.0\.0\.1|localhost):\d+\/?$/.test(rpc)) {
  console.error(`deploy-multicall3.mjs: refusing non-loopback RPC '${rpc}'`);
  process.exit(2);
}

async function call(method, params) {
  const r = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = await r.json();
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}

if ((await call('eth_getCode', [MULTICALL3, 'latest'])) !== '0x') {
  console.log(`Multicall3 already at ${MULTICALL3}`);
  process.exit(0);
}
// viem does not export the constant; read it from the pinned package's own module.
const viemRoot = dirname(createRequire(import.meta.url).resolve('viem/package.json'));
const src = readFileSync(join(viemRoot, '_esm', 'constants', 'contracts.js'), 'utf8');
const creation = /multicall3Bytecode\s*=\s*'(0x[0-9a-f]+)'/.exec(src)?.[1];
if (!creation) throw new Error('deploy-multicall3.mjs: no multicall3Bytecode in viem/_esm/constants/contracts.js');
const runtime = await call('eth_call', [{ data: creation }, 'latest']);
await call('anvil_setCode', [MULTICALL3, runtime]);
console.log(`Multicall3 set at ${MULTICALL3} (${(runtime.length - 2) / 2} bytes of runtime code)`);
