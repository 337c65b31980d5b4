// Eden Test Wallet (a test fixture), page side: runs in the page's MAIN world at document_start,
// announces an EIP-6963 provider and implements EIP-1193 `request` + `on` / `removeListener`.
// Requests go by window.postMessage to the isolated-world bridge (bridge.js), which relays them to
// the extension's service worker (background.js); events come back the same way.
(() => {
  const TO_BRIDGE = 'eden-test-wallet:to-bridge';
  const TO_PAGE = 'eden-test-wallet:to-page';
  const pending = new Map();
  const listeners = new Map();
  let nextId = 1;

  const rpcError = (e) => Object.assign(new Error(e?.message ?? 'wallet error'), { code: e?.code ?? -32603, data: e?.data });

  window.addEventListener('message', (ev) => {
    if (ev.source !== window || ev.data?.target !== TO_PAGE) return;
    const m = ev.data;
    if (m.kind === 'response') {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(rpcError(m.error));
      else p.resolve(m.result);
    } else if (m.kind === 'event') {
      for (const f of [...(listeners.get(m.name) ?? [])]) {
        try { f(m.data); } catch (e) { console.error('Eden Test Wallet listener', e); }
      }
    }
  });

  const provider = {
    isEdenTestWallet: true,
    request(args) {
      if (!args || typeof args !== 'object' || typeof args.method !== 'string') {
        return Promise.reject(rpcError({ code: -32600, message: 'request expects {method, params}' }));
      }
      const id = nextId++;
      const params = args.params === undefined ? [] : args.params;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        window.postMessage({ target: TO_BRIDGE, id, method: args.method, params }, window.location.origin);
      });
    },
    on(name, f) {
      if (!listeners.has(name)) listeners.set(name, []);
      listeners.get(name).push(f);
      return provider;
    },
    removeListener(name, f) {
      const l = listeners.get(name);
      const i = l ? l.indexOf(f) : -1;
      if (i >= 0) l.splice(i, 1);
      return provider;
    },
  };

  const ICON = 'data:image/svg+xml,' + encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2f6b3a"/>'
    + '<text x="16" y="22" font-size="16" font-family="sans-serif" text-anchor="middle" fill="#fff">T</text></svg>');
  const detail = Object.freeze({
    info: Object.freeze({ uuid: crypto.randomUUID(), name: 'Eden Test Wallet', icon: ICON, rdns: 'dev.eden.testwallet' }),
    provider,
  });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();
