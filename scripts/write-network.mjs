// Writes the network description (eden-network-v1, D1; the format is in docs/networks.md) of a local
// deployment from what scripts/deploy-local.sh and scripts/deploy-local-ii.sh deployed:
//
//   node scripts/write-network.mjs --chain-id 31337 --rpc-url http://127.0.0.1:8545 \
//     [--publications http://127.0.0.1:8080/public/demo/] [--name "Local anvil"] [--out FILE]
//
// Reads .eden/deploy-<chainId>.json and writes .eden/network-<chainId>.json (or --out). Only the
// description's own fields are written: the contracts the client reads (the optional ones when that
// half was deployed), the deployment block, the RPC URL and the publication base. Nothing else of the
// deploy record (keys, parameters, test tokens) goes into it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
function opt(name, fallback) {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  if (i + 1 >= args.length) throw new Error(`write-network.mjs: ${name} needs a value`);
  return args[i + 1];
}
const chainId = Number(opt('--chain-id', '31337'));
if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`write-network.mjs: bad --chain-id`);
const rpc = opt('--rpc-url', 'http://127.0.0.1:8545').replace(/\/$/, '');
const publications = opt('--publications', process.env.EDEN_PUBLICATIONS ?? 'http://127.0.0.1:8080/public/demo/');
const name = opt('--name', chainId === 31337 ? 'Local anvil' : `Local anvil ${chainId}`);
const out = opt('--out', join(ROOT, '.eden', `network-${chainId}.json`));

const deployed = JSON.parse(readFileSync(join(ROOT, '.eden', `deploy-${chainId}.json`), 'utf8'));
const need = ['epochRegistry', 'holderDistributor', 'launchpad', 'launchLocker', 'poolManager'];
const optional = ['feeLanes', 'scorerRegistry', 'callLedger', 'duelHook', 'rootPriceOracle', 'multicall3', 'swapRouter', 'sourceKeyRegistry'];
const contracts = {};
for (const k of need) {
  if (!deployed[k]) throw new Error(`write-network.mjs: .eden/deploy-${chainId}.json has no ${k}`);
  contracts[k] = deployed[k];
}
for (const k of optional) if (deployed[k]) contracts[k] = deployed[k];

const description = {
  format: 'eden-network-v1',
  chainId,
  name,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: [rpc],
  contracts,
  deploymentBlock: Number(deployed.startBlock ?? 0),
  publications: [publications],
};
writeFileSync(out, JSON.stringify(description, null, 2) + '\n');
console.log(`network description for chain ${chainId} written to ${out}`);
