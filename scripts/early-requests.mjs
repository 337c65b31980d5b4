// The requests the page sends before the app has started (D11, "Reads sent early"; app/src/chain/page_early.rs).
// A cold load spends about two seconds downloading the main module on a slow phone; the app's first reads need only
// the network description, so the page's loader (an inline script scripts/build-app.mjs writes into index.html)
// fetches the default description and sends them while the wasm downloads:
//
//  - the connection probe (`Rpc::probe`: the chain id, the latest block, Multicall3's `getChainId()`, the deployment
//    block), on every route;
//  - the deployment's metadata file (names and logos) from the description's first publication base, on every route;
//  - the launch list's first page (`launchpad::lens`: LaunchLens's creation code, run by `eth_call`), on `/` and
//    `/launch`.
//
// The app takes each answer only for the byte-identical request to the same URL (app/src/chain/rpc.rs writes the same
// bytes: `probe_body`, `run_code_body`; tests/fixtures/early-requests.json holds both sides to one example), and only
// when it connects through that description's first RPC URL: nothing is sent when the page was opened with
// `?network=`, a network other than the default was selected, or an RPC URL of the person's own was set, because the
// app would then read elsewhere. A request the app does not take costs one request, never a wrong answer.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded default description (`LOCAL_NETWORK_URL`, app/src/chain/network.rs). */
export const DESCRIPTION_URL = '/public/networks/local.json';
/** The deployment's metadata file under its first publication base (`METADATA_FILE`, app/src/chain/world.rs). */
export const METADATA_FILE = 'metadata.json';
/** Multicall3's address on every chain (`MULTICALL3`, app/src/chain/multicall.rs), when the description names none. */
export const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';
/** Rows the launch list's first page asks for (`lens::ROWS`). */
export const LENS_ROWS = 500;
/** The launch list's routes (`state::first_read`), as a path pattern. */
export const LIST_ROUTE = '^/(launch)?/?$';

/** LaunchLens's creation code (`0x…`) from the artifact the app's `sol!` reads (chain/abi/LaunchLens.json), `root`
 * being the repository's directory. */
export function lensCode(root) {
  const code = JSON.parse(readFileSync(join(root, 'chain', 'abi', 'LaunchLens.json'), 'utf8')).bytecode;
  if (typeof code !== 'string' || !/^0x[0-9a-fA-F]+$/.test(code)) throw new Error('chain/abi/LaunchLens.json has no creation code');
  return code;
}

/** `Rpc::probe`'s batch for a description's Multicall3 address and deployment block. */
export function probeBody(multicall, block) {
  return `[{"jsonrpc":"2.0","id":0,"method":"eth_chainId","params":[]},`
    + `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]},`
    + `{"jsonrpc":"2.0","id":2,"method":"eth_call","params":[{"to":"${multicall.toLowerCase()}","data":"0x3408e470"},"latest"]},`
    + `{"jsonrpc":"2.0","id":3,"method":"eth_getBlockByNumber","params":["0x${block.toString(16)}",false]}]`;
}

/** `Rpc::run_code`'s request for LaunchLens's first page of every launch: its creation code (`0x…`) and the
 * constructor's arguments `(pad, [], 0, rows)`, ABI-encoded. */
export function lensBody(code, pad, rows) {
  const word = (hex) => hex.padStart(64, '0');
  const args = word(pad.toLowerCase().slice(2)) + word('80') + word('0') + word(rows.toString(16)) + word('0');
  return `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"data":"${code.toLowerCase()}${args}"},"latest"]}`;
}

/** The loader's inline script (a classic script, run as the HTML is parsed): `lensCode` is LaunchLens's creation
 * code, `publicUrl` the app's public URL (`/` unless Trunk was given another). */
export function earlyScript(lensCode, publicUrl) {
  return `(() => { const probeBody = ${probeBody}; const lensBody = ${lensBody};`
    + ' const early = (globalThis.__edenEarly = []);'
    + ' const keep = (url, body, sent) => { const answer = sent.then(async (r) => ({ status: r.status, type: r.headers.get("content-type"), text: await r.text() }))'
    + '.catch((e) => ({ error: String(e) })); early.push({ url, body, sent: Date.now(), answer }); return answer; };'
    + ' const post = (url, body) => keep(url, body, fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }));'
    + ` const path = location.pathname.slice(${publicUrl.length - 1}) || "/";`
    + ` keep(${JSON.stringify(DESCRIPTION_URL)}, null, fetch(${JSON.stringify(DESCRIPTION_URL)})).then((a) => {`
    + ' if (a.error || a.status !== 200) return;'
    + ' const own = new URLSearchParams(location.search).has("network") || localStorage.getItem("eden.network") !== null'
    + ' || JSON.parse(localStorage.getItem("eden.networks") || "[]").some((n) => n && n.settings && n.settings.rpcOverride);'
    + ' if (own) return;'
    + ' const d = JSON.parse(a.text), url = d.rpcUrls[0], base = d.publications[0].replace(/\\/?$/, "/");'
    + ` if (/^https?:\\/\\//.test(base)) keep(base + ${JSON.stringify(METADATA_FILE)}, null, fetch(base + ${JSON.stringify(METADATA_FILE)}));`
    + ` post(url, probeBody(d.contracts.multicall3 || ${JSON.stringify(MULTICALL3)}, d.deploymentBlock));`
    + ` if (new RegExp(${JSON.stringify(LIST_ROUTE)}).test(path)) post(url, lensBody(${JSON.stringify(lensCode)}, d.contracts.launchpad, ${LENS_ROWS}));`
    + ' }).catch(() => {}); })();';
}
