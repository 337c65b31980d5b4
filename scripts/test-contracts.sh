#!/usr/bin/env bash
# Builds and tests the Solidity contracts (contracts/, a Foundry project) fully offline.
#
#   scripts/test-contracts.sh [extra forge test args...]    e.g. --match-contract EpochRegistry -vvv
#
# Needs `npm ci` done (scripts/setup.sh does it): forge comes from npm @foundry-rs/forge-linux-amd64 and the
# compiler is solc-js (npm solc) behind contracts/tools/solc. Installs nothing; idempotent (forge builds
# incrementally into contracts/out and contracts/cache).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
forge="$root/node_modules/.bin/forge"
if [ ! -x "$forge" ] || [ ! -d "$root/node_modules/solc" ] || [ ! -d "$root/node_modules/@openzeppelin/contracts" ]; then
  echo "test-contracts.sh: npm dev dependencies missing; run 'npm ci' (or scripts/setup.sh) first" >&2
  exit 1
fi
node scripts/check-event-blocks.mjs
cd contracts
printf '\n==> forge build (solc-js 0.8.26, offline)\n'
"$forge" build --offline
printf '\n==> forge test (offline)\n'
"$forge" test --offline "$@"
