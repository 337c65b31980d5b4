#!/usr/bin/env node
// Benchmark (a program, not a test): the app's pages against deployments of growing size, through the
// RPC proxy that answers like a public node (tests/e2e/rpc-proxy.mjs), in headless Chromium.
//
//   node bench/pages.mjs [--sizes 10,100,500] [--latency 0,100] [--no-reference]
//                        [--log-range R] [--log-requests K,…] [--pages Score,Duel #0] [--pad-to B]
//
// For each size N it starts a fresh anvil, deploys (scripts/deploy-local.sh, deploy-local-ii.sh), seeds
// the demo world (scripts/seed-demo.mjs: 5 launches, 4 epochs, 2 duels, 4 agents, 3 scorers' positions),
// then launches N − 5 more tokens and adds ⌊N / 10⌋ more of each of: epochs (signed by the root signer,
// bonded, final, their bundles published by root), positions of dev account 1 (a score every 14 days, the
// registry's limit, each on its own launch, graded in its own epoch, proven and its pool funded; most have
// reached their 30-day end but stay in the registry's open set until their pool is next touched, so the
// page reads every one) and agents (staked, one call revealed). Accounts that are not dev keys (the
// timelock that owns the protocol after the seed, the agents) send through anvil's impersonation. For each added latency it
// opens every page in a fresh browser profile (no log cache) with the burner wallet of dev account 1 (a
// seeded scorer and payout holder) and prints, per page, the HTTP requests and JSON-RPC calls the node
// received and the time from navigation to the page's content (wasm load included; the median of three
// cold loads, after one warm-up load of the browser). The 429 schedule is
// off here (every request answered), so the counts are the app's own.
//
// A long chain (issue 38), simulated: with --log-range R every page reads logs R blocks per request, so a
// scan of the demo's blocks costs what a chain 10,000 / R times as long costs at the default 10,000 (R = 4
// on the demo's ~470 blocks: ~1.2 million blocks). --log-requests runs each page once per setting of the
// scans' requests in flight (D3), side by side. Both are the person's network settings, written into the
// fresh profile before the page loads, as the Network page saves them. --pad-to B mines empty blocks after the
// seed until the chain has B blocks since its deployment block, so with --log-range 1 a scan costs what B × 10,000
// blocks cost (B = 1,000: a deployment 10 million blocks long, issue 38).
//
// Reference, side by side: the launch list's reads as the app made them before #13 (about six
// sequential eth_calls per launch: token at index, launch record, name, symbol, the quote's symbol and
// decimals), replayed from Node through the same proxy against the same chain.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { encode } from '@metamask/abi-utils';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { secp256k1 } from 'ethereum-cryptography/secp256k1.js';
import { startChain, publishNetwork } from '../tests/e2e/chain.mjs';
import { startRpcProxy } from '../tests/e2e/rpc-proxy.mjs';
import { serveDist } from '../tests/e2e/serve.mjs';
import { launch as launchBrowser } from '../tests/e2e/browser.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const eden = require(join(ROOT, 'core', 'pkg-node'));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const SIZES = opt('--sizes', '10,100,500').split(',').map(Number);
const LATENCIES = opt('--latency', '0,100').split(',').map(Number);
const REFERENCE = !args.includes('--no-reference');
const LOG_RANGE = opt('--log-range', null);
const LOG_REQUESTS = opt('--log-requests', null)?.split(',').map(Number) ?? [null];
const ONLY = opt('--pages', null)?.split(',');
const PAD_TO = opt('--pad-to', null);
const TIMEOUT = 120_000;
const RUNS = 3;

const DEPLOYER = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'];
const CREATORS = ['0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', '0x976EA74026E726554dB657fA54763abd0C3a0aa9', '0x14dC79964da2C08b23698B3D3cc7Ca32193d9955'];

const hex = (u8) => '0x' + Buffer.from(u8).toString('hex');
const selector = (sig) => hex(keccak256(Buffer.from(sig))).slice(0, 10);
/** The top-level types of a signature's parameter list (tuples kept whole). */
const splitTypes = (s) => {
  const out = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === ',' && depth === 0) { out.push(cur); cur = ''; continue; }
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
};
const calldata = (sig, values) => {
  const types = splitTypes(sig.slice(sig.indexOf('(') + 1, -1));
  return selector(sig) + (types.length ? hex(encode(types, values)).slice(2) : '');
};

function rpcAt(url) {
  let id = 0;
  return async (method, params = []) => {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
    const j = await r.json();
    if (j.error) throw new Error(`${method}: ${j.error.message}`);
    return j.result;
  };
}

async function sendAndWait(rpc, tx) {
  const hash = await rpc('eth_sendTransaction', [{ gas: '0x' + (8_000_000).toString(16), ...tx }]);
  for (let i = 0; i < 200; i++) {
    const r = await rpc('eth_getTransactionReceipt', [hash]);
    if (r) {
      if (r.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
      return r;
    }
    await new Promise((ok) => setTimeout(ok, 20));
  }
  throw new Error(`no receipt for ${hash}`);
}

const ZERO = '0x0000000000000000000000000000000000000000';
const SCORER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'; // dev account 1: the burner the pages are opened with
const WAD = 10n ** 18n;
const TRACKS = ['agents', 'research', 'apps'].map((t) => eden.trackPreset(t));

/** Grows the seeded chain to `n` launches, with ⌊n / 10⌋ more of each of: epochs (final, published by their
 * root), positions of the bench's scorer (one per epoch: a score on a bench launch, graded in that epoch,
 * proven, its pool funded) and staked agents with a revealed call. */
async function grow(chain, n) {
  const rpc = rpcAt(chain.rpc);
  const c = chain.network.contracts;
  const chainId = Number(BigInt(await rpc('eth_chainId')));
  const A = JSON.parse(readFileSync(join(ROOT, '.eden', 'addresses.json'), 'utf8'))[String(chainId)];
  const call = (to, sig, values = []) => rpc('eth_call', [{ to, data: calldata(sig, values) }, 'latest']);
  const word = async (to, sig, values) => BigInt(await call(to, sig, values));
  const send = (from, to, sig, values = [], value = 0n) =>
    sendAndWait(rpc, { from, to, data: calldata(sig, values), value: '0x' + value.toString(16) });
  const warp = async (s) => { await rpc('evm_increaseTime', [s]); await rpc('evm_mine', []); };
  const now = async () => Number(BigInt((await rpc('eth_getBlockByNumber', ['latest', false])).timestamp));
  // An account that is not a dev key (the timelock that owns the protocol since the seed, the bench's agents)
  // sends through anvil's impersonation: the bench stands in for 48 h governance and for other people.
  const impersonate = async (who) => {
    await rpc('anvil_impersonateAccount', [who]);
    await rpc('anvil_setBalance', [who, '0x' + (100n * WAD).toString(16)]);
  };
  const ownerOf = async (contract) => '0x' + (await call(contract, 'owner()')).slice(26);

  const tokens = [];
  for (let i = 0; i < Math.max(0, n - 5); i++) {
    const r = await send(CREATORS[i % CREATORS.length], c.launchpad, 'launch(string,string,address,uint64)', [`Bench Launch ${i}`, `B${i}`, ZERO, 0n]);
    tokens.push('0x' + r.logs.find((l) => l.address.toLowerCase() === c.launchpad.toLowerCase()).topics[1].slice(26));
  }

  const m = Math.floor(n / 10);
  const bond = await word(c.epochRegistry, 'bond()');
  const domain = { name: 'Eden', version: '1', chainId, verifyingContract: c.epochRegistry };
  const registryOwner = await ownerOf(c.scorerRegistry);
  const feedOwner = await ownerOf(A.ethUsdFeed);
  for (const who of [registryOwner, feedOwner]) await impersonate(who);
  const BURN_CAP = 5_000n * WAD;
  await send(DEPLOYER[0], A.root, 'transfer(address,uint256)', [SCORER, BigInt(m) * BURN_CAP]);
  for (let k = 0; k < m; k++) {
    // A score every 14 days (the registry's interval), each on its own bench launch.
    await warp(14 * 86400 + 60);
    await send(feedOwner, A.ethUsdFeed, 'setAnswer(int256)', [3_000n * 10n ** 8n]);
    const token = tokens[k];
    const text = `Bench thesis ${k}: Bench Launch ${k} is scored by the bench so the positions page reads ${m} more positions.`;
    const thesisHash = hex(keccak256(Buffer.from(text)));
    const targetScoreWad = 70n * WAD;
    await send(SCORER, A.root, 'approve(address,uint256)', [c.scorerRegistry, BURN_CAP]);
    await send(SCORER, c.scorerRegistry, 'score(address,uint256,string,uint256)', [token, targetScoreWad, text, BURN_CAP]);
    const scoreId = Number((await word(c.scorerRegistry, 'scoreCount()')) - 1n);
    // The operator's epoch after it: one cohort project and this grade (a C5 quality leaf), signed, bonded,
    // published by its root where the app fetches bundles, and final after the challenge window.
    await warp(60);
    const epoch = Number(await word(c.epochRegistry, 'nextEpoch()'));
    const qualityWad = (600n + BigInt(k % 300)) * 10n ** 15n;
    const bundle = eden.buildEpoch({
      epoch, tracks: TRACKS, previous: [],
      projects: [{ project: token, track: 'apps', features: TRACKS[2].features.map((f) => String(BigInt(f.refHi) / 2n)),
        claims: 20, failed: 1, verifiedOutput: '1000', ageSecs: 30 * 86400 }],
      theses: [{ scorerRegistry: c.scorerRegistry, scoreId, scorer: SCORER, project: token, thesisHash,
        targetScoreWad: targetScoreWad.toString(), qualityWad: qualityWad.toString(), verdict: 0, matchedThesis: '0x' + '0'.repeat(64) }],
    });
    const expiry = (await now()) + 3 * 86400;
    const digest = eden.epochRootSigningHash(domain, { epoch, root: bundle.root, inputsRoot: bundle.inputsRoot, proposer: DEPLOYER[0], expiry });
    const sig = secp256k1.sign(Buffer.from(digest.slice(2), 'hex'), Buffer.from(DEPLOYER[1].slice(2), 'hex'));
    const signature = '0x' + sig.r.toString(16).padStart(64, '0') + sig.s.toString(16).padStart(64, '0') + (27 + sig.recovery).toString(16);
    // C7a: the deployment's 1-of-1 committee, the deployer's key, approving as a member.
    await send(DEPLOYER[0], c.epochRegistry, 'propose(uint64,bytes32,bytes32,uint64,(address,bytes)[])', [epoch, bundle.root, bundle.inputsRoot, expiry, [[DEPLOYER[0], signature]]], bond);
    writeFileSync(join(chain.demoDir, 'epochs', `${bundle.root.toLowerCase()}.json`), JSON.stringify(bundle));
    await warp(72 * 3600 + 60);
    await send(DEPLOYER[0], c.epochRegistry, 'finalize(uint64)', [epoch]);
    // Its pool (ETH) configured by the registry's owner, the grade proven (anyone may), the pool funded.
    await send(registryOwner, c.scorerRegistry, 'configurePool(address,address)', [token, ZERO]);
    const leaf = bundle.theses[0].leaf;
    await send(DEPLOYER[0], c.scorerRegistry, 'prove(uint256,uint64,uint256,uint8,bytes32,bytes32[])',
      [scoreId, epoch, qualityWad, 0, '0x' + '0'.repeat(64), eden.epochProof(bundle, leaf)]);
    await send(DEPLOYER[0], c.scorerRegistry, 'fund(address,uint256)', [token, WAD / 100n], WAD / 100n);
  }
  await send(feedOwner, A.ethUsdFeed, 'setAnswer(int256)', [3_000n * 10n ** 8n]);

  // Agents: each staked and with one call committed and revealed on the test stock (one-hour window).
  const minStake = await word(c.callLedger, 'minStake()');
  for (let k = 0; k < m; k++) {
    const agent = '0x' + hex(keccak256(Buffer.from(`eden bench agent ${k}`))).slice(26);
    await impersonate(agent);
    await send(DEPLOYER[0], A.root, 'transfer(address,uint256)', [agent, minStake]);
    await send(agent, A.root, 'approve(address,uint256)', [c.callLedger, minStake]);
    await send(agent, c.callLedger, 'stake(uint256)', [minStake]);
    const salt = hex(keccak256(Buffer.from(`eden bench call ${k}`)));
    const direction = k % 2;
    await send(agent, c.callLedger, 'commit(bytes32)', [eden.callCommitment(agent, A.testStock, direction ? 'up' : 'down', 3600, salt)]);
    const id = (await word(c.callLedger, 'callCount()')) - 1n;
    // A commit is revealed once it is the ledger's MIN_REVEAL_AGE old (and before its deadline).
    await warp(Number(await word(c.callLedger, 'MIN_REVEAL_AGE()')) + 1);
    await send(agent, c.callLedger, 'reveal(uint256,address,uint8,uint64,bytes32)', [id, A.testStock, direction, 3600n, salt]);
  }
  return m;
}

/** The launch list's reads as the app made them before #13: per launch, one after another. */
async function oldLaunchListReads(url, pad) {
  const rpc = rpcAt(url);
  const call = (to, sig, values = []) => rpc('eth_call', [{ to, data: calldata(sig, values) }, 'latest']);
  const n = Number(BigInt(await call(pad, 'launchCount()')));
  for (let i = n - 1; i >= 0; i--) {
    const token = '0x' + (await call(pad, 'tokens(uint256)', [i])).slice(26);
    const rec = await call(pad, 'launchOf(address)', [token]);
    await call(token, 'name()');
    await call(token, 'symbol()');
    const quote = '0x' + rec.slice(26, 66);
    if (BigInt(quote) !== 0n) {
      await call(quote, 'symbol()');
      await call(quote, 'decimals()');
    }
  }
}

/** The pages measured: path, what shows that the content is there, and that content's size. */
function pages(chain, launches, epochs, more) {
  const gard = chain.world.launches.find((l) => l.symbol === 'GARD')?.token;
  return [
    { page: 'Launch list', path: 'launch', ready: (n) => document.querySelectorAll('.launch-row').length >= n, arg: launches, what: `${launches} launches` },
    ...(gard ? [{ page: 'Token (graduated)', path: `launch/${gard}`, ready: () => !!document.querySelector('#graduated #pool-price .amount'), arg: 0, what: 'curve, trades, pool' }] : []),
    { page: 'Score', path: 'score', ready: (n) => document.querySelectorAll('#epochs tr[data-epoch]').length >= n, arg: epochs, what: `${epochs} epochs` },
    { page: 'Payouts', path: 'payouts', ready: () => !!document.querySelector('.payout-row .claim-status, #no-payouts'), arg: 0, what: 'rounds, proofs' },
    { page: 'Scorer positions', path: 'scorer', ready: (n) => document.querySelectorAll('.position-row .owed-at-block .amount').length >= n, arg: Math.max(1, more), what: `≥ ${more} positions, accrual` },
    { page: 'Calls', path: 'calls', ready: (n) => document.querySelectorAll('.agent-row').length >= n, arg: 4 + more, what: `${4 + more} agents, consensus` },
    { page: 'Duels', path: 'duel', ready: () => document.querySelectorAll('.duel-row').length > 0, arg: 0, what: 'duels' },
    { page: 'Duel #0', path: 'duel/0', ready: () => !!document.querySelector('#round-mean[data-mean-tick]'), arg: 0, what: 'swap log replay' },
  ];
}

/** One cold load of `p` in a fresh profile (no log cache, no HTTP cache). */
async function loadOnce(browser, proxy, baseUrl, p, settings = null) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  // Dev account 1's burner (index 0), as a person who connected it earlier in this tab.
  await context.addInitScript(() => sessionStorage.setItem('eden.burner', '0'));
  if (settings) {
    // The person's settings for the local network, as the Network page stores them.
    await context.addInitScript((saved) => {
      localStorage.setItem('eden.networks', JSON.stringify([saved]));
      localStorage.setItem('eden.network', JSON.stringify(saved.source));
    }, settings);
  }
  const page = await context.newPage();
  try {
    proxy.reset();
    const t0 = Date.now();
    await page.goto(baseUrl + p.path);
    await page.waitForFunction(p.ready, p.arg, { timeout: TIMEOUT, polling: 20 });
    const ms = Date.now() - t0;
    return { ms, http: proxy.stats.http, calls: proxy.stats.calls };
  } finally {
    await context.close();
  }
}

/** `RUNS` cold loads of `p`: the median time, and the node's counts (the same every run). */
async function measure(browser, proxy, baseUrl, p, settings) {
  try {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await loadOnce(browser, proxy, baseUrl, p, settings));
    runs.sort((a, b) => a.ms - b.ms);
    return runs[Math.floor(runs.length / 2)];
  } catch (e) {
    return { error: e.message.split('\n')[0] };
  }
}

const rows = [];
const browser = await launchBrowser();
try {
  for (const n of SIZES) {
    const t0 = Date.now();
    const chain = await startChain(ROOT);
    const netDir = mkdtempSync(join(tmpdir(), 'eden-bench-networks-'));
    try {
      const extraEpochs = await grow(chain, n);
      const rpc = rpcAt(chain.rpc);
      const c = chain.network.contracts;
      const launches = Number(BigInt(await rpc('eth_call', [{ to: c.launchpad, data: calldata('launchCount()', []) }, 'latest'])));
      const epochs = chain.world.epochs.length + extraEpochs;
      if (PAD_TO) {
        const since = Number(await rpc('eth_blockNumber', [])) - (chain.network.deploymentBlock ?? 0);
        const pad = Math.max(0, Number(PAD_TO) - since);
        // Empty blocks one second apart: the chain's age grows, its state does not.
        if (pad) await rpc('anvil_mine', ['0x' + pad.toString(16), '0x1']);
        console.log(`# padded with ${pad} empty blocks: ${since + pad} blocks since the deployment block`);
      }
      console.log(`# N = ${n}: ${launches} launches, ${epochs} epochs, ${extraEpochs} more positions and agents, seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      for (const latency of LATENCIES) {
        const proxy = await startRpcProxy(chain.rpc, { latencyMs: latency, every429: 0 });
        const server = await serveDist(join(ROOT, 'dist'), { '/public/demo/': chain.demoDir, '/public/networks/': netDir });
        publishNetwork(netDir, 'local', chain.network, server.url + 'public/demo/', { rpcUrls: [proxy.url] });
        try {
          // Warm-up, not counted: the browser's first load of the app compiles its wasm cold.
          await loadOnce(browser, proxy, server.url, pages(chain, launches, epochs, extraEpochs)[0]).catch(() => {});
          const description = JSON.parse(readFileSync(join(netDir, 'local.json'), 'utf8'));
          for (const requests of LOG_REQUESTS) {
            const settings = LOG_RANGE || requests
              ? { source: '/public/networks/local.json', description, settings: { logRange: Number(LOG_RANGE ?? 10000), logRequests: requests ?? 4 } }
              : null;
            const column = requests ? `${latency} ms, ${requests} at once` : `${latency} ms`;
            for (const p of pages(chain, launches, epochs, extraEpochs).filter((x) => !ONLY || ONLY.includes(x.page))) {
              const r = await measure(browser, proxy, server.url, p, settings);
              rows.push({ n, latency: column, page: p.page, what: p.what, ...r });
              console.log(`#   ${column}  ${p.page.padEnd(18)} ${r.error ? 'FAILED: ' + r.error : `${r.http} HTTP, ${r.calls} calls, ${r.ms} ms`}`);
            }
          }
          if (!REFERENCE) continue;
          proxy.reset();
          const t1 = Date.now();
          await oldLaunchListReads(proxy.url, c.launchpad);
          rows.push({ n, latency: `${latency} ms`, page: 'Launch list, pre-#13 reads', what: `${launches} launches`, ms: Date.now() - t1, http: proxy.stats.http, calls: proxy.stats.calls });
          console.log(`#   ${latency} ms  pre-#13 launch list reads: ${proxy.stats.http} HTTP, ${proxy.stats.calls} calls, ${Date.now() - t1} ms`);
        } finally {
          await server.close();
          await proxy.close();
        }
      }
    } finally {
      chain.stop();
      rmSync(netDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}

// The table: one row per page and size, the latencies side by side.
const key = (r) => `${r.page}|${r.n}`;
const groups = new Map();
for (const r of rows) {
  if (!groups.has(key(r))) groups.set(key(r), { page: r.page, n: r.n, what: r.what, by: {} });
  groups.get(key(r)).by[r.latency] = r;
}
const COLUMNS = [...new Set(rows.map((r) => r.latency))];
const cell = (r) => (!r ? '–' : r.error ? 'failed' : `${r.http} / ${r.calls} / ${r.ms.toLocaleString('en-US')} ms`);
if (LOG_RANGE) console.log(`\nLog range ${LOG_RANGE} blocks per request (a chain ${Math.round(10000 / Number(LOG_RANGE)).toLocaleString('en-US')} times as long at 10,000).`);
console.log('\n| page | N | content | ' + COLUMNS.map((l) => `+${l}: HTTP / calls / time`).join(' | ') + ' |');
console.log('|---|---|---|' + COLUMNS.map(() => '---').join('|') + '|');
const order = [...new Set(rows.map((r) => r.page))];
for (const page of order) {
  for (const g of [...groups.values()].filter((x) => x.page === page).sort((a, b) => a.n - b.n)) {
    console.log(`| ${g.page} | ${g.n} | ${g.what} | ${COLUMNS.map((l) => cell(g.by[l])).join(' | ')} |`);
  }
}
