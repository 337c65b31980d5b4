// The contracts' ABIs (shared by the app and the operator), generated from the forge artifacts (contracts/out) into chain/abi/<Contract>.json,
// which chain/src/abi.rs (eden-chain) feeds to alloy's `sol!`. The JSON files are committed so the app builds without
// Foundry; `--check` (run by scripts/test.sh after `forge build`) fails when any of them is stale.
//
//   node scripts/gen-abi.mjs           regenerate chain/abi/*.json
//   node scripts/gen-abi.mjs --check   exit 1 if chain/abi differs from contracts/out
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// [artifact file, contract]: the protocol's contracts the app talks to, plus the two external interfaces
// it reads (Chainlink's AggregatorV3Interface; Uniswap v4's IExtsload and IPoolManager events on the PoolManager).
export const CONTRACTS = [
  ['Launchpad.sol', 'Launchpad'],
  ['LaunchToken.sol', 'LaunchToken'],
  ['EpochRegistry.sol', 'EpochRegistry'],
  ['HolderDistributor.sol', 'HolderDistributor'],
  ['FeeLanes.sol', 'FeeLanes'],
  ['DuelHook.sol', 'DuelHook'],
  ['CallLedger.sol', 'CallLedger'],
  ['RootPriceOracle.sol', 'RootPriceOracle'],
  ['RootBuyback.sol', 'RootBuyback'],
  ['ScorerRegistry.sol', 'ScorerRegistry'],
  ['SwapRouter.sol', 'SwapRouter'],
  ['SourceKeyRegistry.sol', 'SourceKeyRegistry'],
  ['LaunchLocker.sol', 'LaunchLocker'],
  ['EventBlocks.sol', 'EventBlocks'],
  ['TimelockController.sol', 'TimelockController'],
  ['AggregatorV3Interface.sol', 'AggregatorV3Interface'],
  ['IExtsload.sol', 'IExtsload'],
  ['IPoolManager.sol', 'IPoolManager'],
];
// Deployless readers (D3): never deployed, their creation code is run by `eth_call`, so the app needs
// their bytecode as well (`sol!` reads it from the artifact's `bytecode`).
export const LENSES = [['LaunchLens.sol', 'LaunchLens']];

const check = process.argv.includes('--check');
const outDir = join(ROOT, 'chain', 'abi');
mkdirSync(outDir, { recursive: true });
const stale = [];
for (const [file, name, lens] of [...CONTRACTS, ...LENSES.map(([f, n]) => [f, n, true])]) {
  const artifact = join(ROOT, 'contracts', 'out', file, `${name}.json`);
  if (!existsSync(artifact)) {
    console.error(`gen-abi: ${artifact} is missing: run \`forge build\` in contracts/ first`);
    process.exit(2);
  }
  const { abi, bytecode } = JSON.parse(readFileSync(artifact, 'utf8'));
  const text = JSON.stringify(lens ? { abi, bytecode: bytecode.object } : abi, null, 1) + '\n';
  const target = join(outDir, `${name}.json`);
  if (check) {
    if (!existsSync(target) || readFileSync(target, 'utf8') !== text) stale.push(`chain/abi/${name}.json`);
  } else {
    writeFileSync(target, text);
  }
}
if (stale.length) {
  console.error(`gen-abi: stale ABIs (the contracts changed): ${stale.join(', ')}\nrun: node scripts/gen-abi.mjs`);
  process.exit(1);
}
console.log(check ? `gen-abi: chain/abi matches contracts/out (${CONTRACTS.length + LENSES.length} ABIs)` : `gen-abi: wrote ${CONTRACTS.length + LENSES.length} ABIs to chain/abi/`);
