// parseNetworkDescription (D1): the eden-network-v1 document a client uses a deployment through.
// Run: node --test tests/js/ (after building core/pkg-node).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const eden = require('../../core/pkg-node');
const { keccak256 } = require('ethereum-cryptography/keccak.js');
const { utf8ToBytes, bytesToHex } = require('ethereum-cryptography/utils.js');

// EIP-55 reference: a hex digit is upper case when the nibble of keccak256(lowercase hex) is ≥ 8.
function eip55(addr) {
  const hex = addr.slice(2).toLowerCase();
  const h = bytesToHex(keccak256(utf8ToBytes(hex)));
  return '0x' + [...hex].map((c, i) => (parseInt(h[i], 16) >= 8 ? c.toUpperCase() : c)).join('');
}

const local = () => ({
  format: 'eden-network-v1',
  chainId: 31337,
  name: 'Local anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: ['http://127.0.0.1:8545'],
  explorerUrl: null,
  contracts: {
    epochRegistry: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    holderDistributor: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    launchpad: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
    launchLocker: '0x0E0ddA5259e1Dad8bB7f774261e351A0C83b6000',
    poolManager: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  },
  deploymentBlock: 0,
  publications: ['https://example.org/eden/'],
});

test('a valid description comes back as the same object', () => {
  assert.deepEqual(eden.parseNetworkDescription(JSON.stringify(local())), local());
});

test('a bad description is refused naming the field', () => {
  const bad = (edit, re) => {
    const d = local();
    edit(d);
    assert.throws(() => eden.parseNetworkDescription(JSON.stringify(d)), (e) => e instanceof Error && re.test(e.message), `${re}`);
  };
  bad((d) => { d.chainId = 0; }, /^network: chainId: /);
  bad((d) => { d.rpcUrls = ['ws://127.0.0.1:8545']; }, /^network: rpcUrls\[0\]: /);
  bad((d) => { d.contracts.launchpad = d.contracts.poolManager; }, /contracts\.poolManager: .* is also contracts\.launchpad|contracts\.launchpad: .* is also/);
  bad((d) => { d.epochs = []; }, /unknown field `epochs`/);
  bad((d) => { d.nativeCurrency.decimals = 6; }, /nativeCurrency\.decimals: must be 18/);
  assert.throws(() => eden.parseNetworkDescription('{'), /^Error: network: /);
  assert.throws(() => eden.parseNetworkDescription(7), TypeError);
});

test('addresses in results are EIP-55 checksummed, whatever case they came in', () => {
  const d = local();
  const lower = local();
  for (const k of Object.keys(lower.contracts)) lower.contracts[k] = lower.contracts[k].toLowerCase();
  assert.deepEqual(eden.parseNetworkDescription(JSON.stringify(lower)).contracts, d.contracts);
  for (const v of Object.values(d.contracts)) assert.equal(eip55(v), v);
  const a = '0x' + 'ab'.repeat(20);
  const out = eden.holderAllocation({
    distributor: '0x' + '11'.repeat(20), chainId: 1, token: '0x' + '22'.repeat(20), asset: '0x' + '00'.repeat(20),
    epoch: 1, total: '10', balances: [{ account: a, balance: '1' }],
  });
  assert.equal(out.allocations[0].account, eip55(a));
  assert.notEqual(out.allocations[0].account, a);
});
