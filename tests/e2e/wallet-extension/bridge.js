// Eden Test Wallet (a test fixture), isolated world: relays the page provider's requests
// (window.postMessage) to the service worker (chrome.runtime.sendMessage) and the worker's
// events (chrome.tabs.sendMessage) back to the page.
const TO_BRIDGE = 'eden-test-wallet:to-bridge';
const TO_PAGE = 'eden-test-wallet:to-page';

window.addEventListener('message', async (ev) => {
  if (ev.source !== window || ev.data?.target !== TO_BRIDGE) return;
  const { id, method, params } = ev.data;
  let reply;
  try {
    reply = await chrome.runtime.sendMessage({ type: 'rpc', method, params });
  } catch (e) {
    reply = { error: { code: 4900, message: `the wallet extension did not answer: ${e?.message ?? e}` } };
  }
  window.postMessage({ target: TO_PAGE, kind: 'response', id, ...(reply ?? { error: { code: -32603, message: 'no reply' } }) }, window.location.origin);
});

chrome.runtime.onMessage.addListener((m) => {
  if (m?.type === 'event') window.postMessage({ target: TO_PAGE, kind: 'event', name: m.name, data: m.data }, window.location.origin);
});
