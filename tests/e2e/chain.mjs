// A real local chain for the end-to-end tests: a fresh anvil on a free loopback port (fixed dev
// mnemonic, chain id 31337), the contracts deployed by scripts/deploy-local.sh and the demo world
// seeded by scripts/seed-demo.mjs into a temporary directory; the network description the deploy
// scripts wrote (.eden/network-31337.json). `stop()` kills what it started, by PID.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MNEMONIC = 'test test test test test test test test test test test junk';

async function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

async function rpcReady(url) {
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' });
      if (r.ok) return;
    } catch { /* not yet */ }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`anvil did not answer at ${url}`);
}

/** Serves `network` (a description) as `<dir>/<name>.json` with its publications at `publications`
 * (the app's origin is known only once it is served); `changes` overrides fields (bad-input tests). */
export function publishNetwork(dir, name, network, publications, changes = {}) {
  writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...network, publications: [publications], ...changes }, null, 2));
}

/** Starts anvil, deploys and seeds; resolves to {rpc, demoDir (the publications), privateDir (the seed
 * report world.json and the private inputs), world, network, stop}. `chainId` picks the chain id;
 * `nonceBump` sends that many transactions from the deployer first, so every address differs. */
export async function startChain(root, { chainId = 31337, nonceBump = 0 } = {}) {
  const bin = join(root, 'node_modules', '.bin');
  const port = await freePort();
  const rpc = `http://127.0.0.1:${port}`;
  const anvil = spawn(join(bin, 'anvil'), ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--mnemonic', MNEMONIC, '--silent'], { stdio: 'ignore' });
  const stop = () => { try { anvil.kill('SIGTERM'); } catch { /* already gone */ } };
  try {
    await rpcReady(rpc);
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
    for (let i = 0; i < nonceBump; i++) {
      const r = await fetch(rpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1,
        method: 'eth_sendTransaction', params: [{ from: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', to: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', value: '0x0' }] }) });
      const j = await r.json();
      if (j.error) throw new Error(`nonce bump: ${j.error.message}`);
    }
    execFileSync('bash', [join(root, 'scripts', 'deploy-local.sh'), '--rpc-url', rpc], { cwd: root, env, stdio: 'pipe' });
    execFileSync('bash', [join(root, 'scripts', 'deploy-local-ii.sh'), '--rpc-url', rpc], { cwd: root, env, stdio: 'pipe' });
    const demoDir = mkdtempSync(join(tmpdir(), 'eden-demo-'));
    const privateDir = mkdtempSync(join(tmpdir(), 'eden-seed-'));
    execFileSync('node', [join(root, 'scripts', 'seed-demo.mjs'), '--rpc-url', rpc, '--out', demoDir, '--private', privateDir, '--quiet'], { cwd: root, env, stdio: 'pipe' });
    const world = JSON.parse(readFileSync(join(privateDir, 'world.json'), 'utf8'));
    const network = JSON.parse(readFileSync(join(root, '.eden', `network-${chainId}.json`), 'utf8'));
    return {
      rpc, demoDir, privateDir, world, network,
      stop: () => { stop(); rmSync(demoDir, { recursive: true, force: true }); rmSync(privateDir, { recursive: true, force: true }); },
    };
  } catch (e) {
    stop();
    throw new Error(`starting the local chain failed: ${e.stderr?.toString() ?? e.message}`);
  }
}
