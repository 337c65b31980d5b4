// A JSON-RPC proxy in front of anvil that answers the way public nodes do, for the end-to-end tests
// and the benchmark:
//  - adds `latencyMs` to every HTTP request;
//  - refuses an eth_getLogs over more than `maxBlocks` blocks ("block range too large") or with more
//    than `maxResults` logs ("query returned more than N results");
//  - answers HTTP 429 to every `every429`-th HTTP request (deterministic; 0 turns it off);
//  - allows any origin (CORS, preflight included, on 429s too, so the page can read the status);
//  - counts HTTP requests and JSON-RPC calls by method, lists each HTTP request's calls (`requests`), and records each eth_getLogs range and each range asked
//    of a contract's record of its events' blocks (`eventBlocks`, D12);
//  - while `down` is set, answers every request HTTP 503 (a node that is down; the Retry tests);
//  - counts `eth_call`s without `to` (deployless readers, D3) and, while `refuseDeployless` is set, answers
//    them with an error and no data, as a node that refuses them would;
//  - while `lieEventBlocks` is set, answers every `eventBlocks` call with a block outside the range asked.
// Batches (JSON arrays) are forwarded as one HTTP request and each call in them is checked.
import { decode } from '@metamask/abi-utils';
import { createServer } from 'node:http';
import { keccak256 } from 'ethereum-cryptography/keccak.js';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
/** The selector of `eventBlocks(bytes32,uint64,uint64,uint256)`, as `eth_call` data starts. */
export const EVENT_BLOCKS = '0x' + Buffer.from(keccak256(Buffer.from('eventBlocks(bytes32,uint64,uint64,uint256)'))).subarray(0, 4).toString('hex');

async function upstreamCall(upstream, body) {
  const r = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return r.json();
}

/** Starts the proxy on 127.0.0.1; resolves to {url, down, stats, totals, reset, close}: `stats` counts since
 * the last `reset()`, `totals` since the start. */
export async function startRpcProxy(upstream, { latencyMs = 0, maxBlocks = 10_000, maxResults = 10_000, every429 = 7 } = {}) {
  const fresh = () => ({ http: 0, calls: 0, rateLimited: 0, refusedRanges: 0, deployless: 0, deploylessData: [], byMethod: {}, getLogs: [], eventBlocks: [], requests: [] });
  const stats = fresh();
  const totals = fresh();
  const count = (k, method) => {
    for (const s of [stats, totals]) {
      if (method) s.byMethod[method] = (s.byMethod[method] ?? 0) + 1;
      else s[k]++;
    }
  };
  let n429 = 0;
  const control = { down: false, refuseDeployless: false, lieEventBlocks: false };
  const blockOf = async (tag) => {
    if (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') {
      const r = await upstreamCall(upstream, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
      return Number(BigInt(r.result));
    }
    if (tag === 'earliest') return 0;
    return Number(BigInt(tag));
  };
  // One call: a refused eth_getLogs is answered here; anything else is forwarded.
  const one = async (call) => {
    count('calls');
    count(null, call.method);
    if (call.method === 'eth_call' && !call.params?.[0]?.to) {
      count('deployless');
      for (const s of [stats, totals]) s.deploylessData.push(String(call.params?.[0]?.data ?? call.params?.[0]?.input ?? ''));
      if (control.refuseDeployless) return { jsonrpc: '2.0', id: call.id, error: { code: -32602, message: 'invalid argument 0: missing "to"' } };
    }
    const data = String(call.params?.[0]?.data ?? call.params?.[0]?.input ?? '');
    if (call.method === 'eth_call' && data.startsWith(EVENT_BLOCKS)) {
      // eventBlocks(bytes32 key, uint64 fromBlock, uint64 toBlock, uint256 max)
      const word = (i) => Number(BigInt('0x' + data.slice(10 + 64 * i, 74 + 64 * i)));
      const asked = { address: String(call.params[0].to).toLowerCase(), key: '0x' + data.slice(10, 74), from: word(1), to: word(2) };
      for (const s of [stats, totals]) s.eventBlocks.push(asked);
    }
    if (control.lieEventBlocks && call.method === 'eth_call' && data.startsWith(EVENT_BLOCKS)) {
      // A node lying about a record: one block past the range asked, `more` false.
      const to = BigInt('0x' + data.slice(10 + 64 * 2, 74 + 64 * 2));
      const word = (n) => BigInt(n).toString(16).padStart(64, '0');
      return { jsonrpc: '2.0', id: call.id, result: '0x' + word(0x40) + word(0) + word(1) + word(to + 1n) };
    }
    if (call.method !== 'eth_getLogs') return upstreamCall(upstream, call);
    const f = call.params?.[0] ?? {};
    if (f.blockHash === undefined) {
      const from = await blockOf(f.fromBlock ?? 'earliest');
      const to = await blockOf(f.toBlock);
      for (const s of [stats, totals]) s.getLogs.push({ address: String(f.address).toLowerCase(), from, to });
      if (to - from + 1 > maxBlocks) {
        count('refusedRanges');
        return { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: `block range too large: at most ${maxBlocks} blocks per request` } };
      }
    }
    const r = await upstreamCall(upstream, call);
    if (Array.isArray(r.result) && r.result.length > maxResults) {
      count('refusedRanges');
      return { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: `query returned more than ${maxResults} results` } };
    }
    return r;
  };
  // One JSON-RPC call named for the request list: a call by its target's first bytes and its selector, a Multicall3
  // `aggregate3` by the calls inside it.
  const describe = (c) => {
    if (c.method !== 'eth_call') return c.method;
    const to = String(c.params?.[0]?.to ?? 'deployless').slice(0, 8);
    const data = String(c.params?.[0]?.data ?? c.params?.[0]?.input ?? '');
    return data.startsWith('0x82ad56cb') ? `aggregate3 [${aggregate3Calls(data).join(' ')}]` : `eth_call ${to} ${data.slice(0, 10)}`;
  };
  const server = createServer(async (req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS);
      res.end();
      return;
    }
    const chunks = [];
    for await (const c of req) chunks.push(c);
    count('http');
    // Listed and timed as it arrives (a request still waiting out its latency when the page is ready is listed too).
    let what; // this HTTP request's entry in `requests`: when it arrived and when it was answered
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      what = (Array.isArray(body) ? body : [body]).map(describe);
    } catch {
      what = ['(not JSON)'];
    }
    what.at = Date.now();
    res.on('finish', () => { what.done = Date.now(); }); // answered, whatever the answer
    for (const s of [stats, totals]) s.requests.push(what);
    if (latencyMs) await sleep(latencyMs);
    if (control.down) {
      res.writeHead(503, { ...CORS, 'content-type': 'text/plain' });
      res.end('Service Unavailable');
      return;
    }
    if (every429 && ++n429 % every429 === 0) {
      count('rateLimited');
      res.writeHead(429, { ...CORS, 'content-type': 'text/plain', 'retry-after': '1' });
      res.end('Too Many Requests');
      return;
    }
    if (body === undefined) {
      res.writeHead(400, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
      return;
    }
    try {
      const out = Array.isArray(body) ? await Promise.all(body.map(one)) : await one(body);
      res.writeHead(200, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    } catch (e) {
      res.writeHead(502, { ...CORS, 'content-type': 'text/plain' });
      res.end(`upstream failed: ${e.message}`);
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    /** While true, every request is answered HTTP 503. */
    set down(v) { control.down = v; },
    get down() { return control.down; },
    /** While true, an `eth_call` without `to` is refused (error, no data). */
    set refuseDeployless(v) { control.refuseDeployless = v; },
    get refuseDeployless() { return control.refuseDeployless; },
    /** While true, every `eventBlocks` call is answered with a block past the range asked (a lying record). */
    set lieEventBlocks(v) { control.lieEventBlocks = v; },
    get lieEventBlocks() { return control.lieEventBlocks; },
    stats,
    totals,
    reset: () => Object.assign(stats, fresh()),
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}

/** The `target:selector` of each call in a Multicall3 `aggregate3((address,bool,bytes)[])` calldata (display only). */
function aggregate3Calls(data) {
  try {
    const [calls] = decode(['(address,bool,bytes)[]'], Buffer.from(data.slice(10), 'hex'));
    return calls.map(([target, , callData]) => `${target.slice(2, 8)}:${Buffer.from(callData).toString('hex').slice(0, 8)}`);
  } catch {
    return ['?'];
  }
}
