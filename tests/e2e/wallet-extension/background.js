// Eden Test Wallet (a test fixture), service worker: holds the wallet state (accounts, selected
// account, known chains, current chain, connected origins) in chrome.storage.local and answers the
// page's EIP-1193 requests. It holds NO keys: eth_sendTransaction is forwarded to the node, where
// anvil's unlocked dev account signs it (that is this fixture's "signer"). Everything else that is
// not wallet state is forwarded to the current chain's node. Only http://127.0.0.1 nodes are used.
//
// The test configures it from outside, through the service worker (Playwright `worker.evaluate`):
//   self.edenTestWallet.configure({ accounts, chains: { '0x7a69': 'http://127.0.0.1:PORT' }, chainId })
//   self.edenTestWallet.selectAccount(i)   // pushes `accountsChanged` to connected pages
//   self.edenTestWallet.state()

const DEFAULT = { accounts: [], selected: 0, chains: {}, chainId: '0x1', connected: [] };
let state = null;
let queue = Promise.resolve();

async function load() {
  if (!state) state = { ...DEFAULT, ...((await chrome.storage.local.get('wallet')).wallet ?? {}) };
  return state;
}
async function save() {
  await chrome.storage.local.set({ wallet: state });
}
/** Runs `f` on the state, one at a time (requests may arrive concurrently). */
function withState(f) {
  const run = queue.then(async () => f(await load()));
  queue = run.catch(() => {});
  return run;
}

class RpcError extends Error {
  constructor(code, message, data) { super(message); this.code = code; this.data = data; }
}

const hexChain = (c) => {
  const s = String(c ?? '').toLowerCase();
  if (!/^0x[0-9a-f]+$/.test(s)) throw new RpcError(-32602, `invalid chainId ${c}`);
  return '0x' + BigInt(s).toString(16);
};
const localUrl = (u) => {
  let url;
  try { url = new URL(u); } catch { return false; }
  return url.protocol === 'http:' && url.hostname === '127.0.0.1';
};
const selected = (s) => s.accounts[s.selected];

async function broadcast(name, data, s) {
  const tabs = await chrome.tabs.query({ url: 'http://127.0.0.1/*' });
  await Promise.all(tabs.map(async (t) => {
    let origin;
    try { origin = new URL(t.url).origin; } catch { return; }
    if (!s.connected.includes(origin)) return;
    await chrome.tabs.sendMessage(t.id, { type: 'event', name, data }).catch(() => {});
  }));
}

async function forward(s, method, params) {
  const url = s.chains[s.chainId];
  if (!url) throw new RpcError(4901, `Eden Test Wallet has no node for chain ${s.chainId}`);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  let res;
  // A rate-limited node (HTTP 429) is asked again after a growing wait, as wallets do.
  for (let attempt = 0; ; attempt++) {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (res.status !== 429 || attempt >= 5) break;
    await new Promise((ok) => setTimeout(ok, 100 << attempt));
  }
  if (!res.ok) throw new RpcError(-32603, `node answered HTTP ${res.status}`);
  const j = await res.json();
  if (j.error) throw new RpcError(j.error.code ?? -32603, j.error.message ?? 'node error', j.error.data);
  return j.result;
}

async function switchTo(s, chainId) {
  if (s.chainId === chainId) return;
  s.chainId = chainId;
  await save();
  await broadcast('chainChanged', chainId, s);
}

async function handle(origin, method, params) {
  const s = await load();
  const authorized = s.connected.includes(origin);
  switch (method) {
    case 'eth_requestAccounts':
      // A real wallet would ask here; this fixture approves every 127.0.0.1 origin.
      return withState(async (s) => {
        if (!selected(s)) throw new RpcError(4100, 'Eden Test Wallet is not configured (no accounts)');
        if (!s.connected.includes(origin)) { s.connected.push(origin); await save(); }
        return [selected(s)];
      });
    case 'eth_accounts':
      return authorized && selected(s) ? [selected(s)] : [];
    case 'eth_chainId':
      return s.chainId;
    case 'net_version':
      return BigInt(s.chainId).toString(10);
    case 'wallet_switchEthereumChain':
      return withState(async (s) => {
        const id = hexChain(params?.[0]?.chainId);
        if (!s.chains[id]) throw new RpcError(4902, `Unrecognized chain ID ${id}. Try adding the chain using wallet_addEthereumChain first.`);
        await switchTo(s, id);
        return null;
      });
    case 'wallet_addEthereumChain':
      return withState(async (s) => {
        const p = params?.[0] ?? {};
        const id = hexChain(p.chainId);
        const url = (p.rpcUrls ?? []).find(localUrl);
        if (!url) throw new RpcError(-32602, 'Eden Test Wallet only adds chains with an http://127.0.0.1 node');
        s.chains[id] = url;
        await save();
        await switchTo(s, id); // like common wallets: adding offers to switch; this fixture accepts
        return null;
      });
    case 'eth_sendTransaction': {
      if (!authorized) throw new RpcError(4100, 'connect first (eth_requestAccounts)');
      const tx = { ...(params?.[0] ?? {}) };
      const from = selected(s);
      if (tx.from && tx.from.toLowerCase() !== from.toLowerCase()) {
        throw new RpcError(4100, `the transaction is from ${tx.from}, the wallet's account is ${from}`);
      }
      tx.from = from;
      return forward(s, 'eth_sendTransaction', [tx]); // anvil's unlocked dev account signs
    }
    case 'eth_sign': case 'personal_sign': case 'eth_signTypedData_v4':
      if (!authorized) throw new RpcError(4100, 'connect first (eth_requestAccounts)');
      return forward(s, method, params);
    default:
      if (method.startsWith('wallet_')) throw new RpcError(4200, `Eden Test Wallet does not support ${method}`);
      return forward(s, method, params);
  }
}

chrome.runtime.onMessage.addListener((m, sender, sendResponse) => {
  if (m?.type !== 'rpc') return false;
  const origin = sender.origin ?? (sender.url ? new URL(sender.url).origin : '');
  handle(origin, m.method, Array.isArray(m.params) ? m.params : [m.params]).then(
    (result) => sendResponse({ result: result ?? null }),
    (e) => sendResponse({ error: { code: e.code ?? -32603, message: e.message ?? String(e), data: e.data } }),
  );
  return true; // answers asynchronously
});

// The test's handle on the wallet (from outside the page, as a person using the extension would).
self.edenTestWallet = {
  /** Accounts (anvil dev addresses), known chains {hexId: http://127.0.0.1 url}, current chain. */
  configure: ({ accounts, chains = {}, chainId = '0x1' }) => withState(async (s) => {
    for (const u of Object.values(chains)) if (!localUrl(u)) throw new Error(`not a 127.0.0.1 node: ${u}`);
    Object.assign(s, { ...DEFAULT, accounts, chains, chainId: hexChain(chainId), connected: [] });
    await save();
    return s;
  }),
  /** Selects account `i` and tells connected pages (`accountsChanged`). */
  selectAccount: (i) => withState(async (s) => {
    if (!s.accounts[i]) throw new Error(`no account ${i}`);
    s.selected = i;
    await save();
    await broadcast('accountsChanged', [s.accounts[i]], s);
    return s.accounts[i];
  }),
  state: () => load(),
};
