#!/usr/bin/env bash
# Differential tests: eden-core against the Solidity contracts on local anvil chains (contracts/diff).
#
#   scripts/test-diff.sh [extra cargo test args...]     e.g. -- --nocapture, or --test launchpad
#
# Order matters: the Rust bindings are generated from the forge artifacts, so `forge build` runs first
# (offline, incremental); then `cargo test -p eden-contracts-diff` starts one anvil per test
# (127.0.0.1, free port, killed on drop) and deploys with scripts/deploy-local.sh. Each test prints a
# one-line summary to stderr. EDEN_DIFF_SEED=<u64> changes the random trades/cohort (the seed is printed).
# Needs `npm ci` done (anvil, forge, cast, solc-js from npm).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
for tool in forge anvil cast; do
  [ -x "$root/node_modules/.bin/$tool" ] || { echo "test-diff.sh: $tool missing; run 'npm ci' first" >&2; exit 1; }
done

printf '\n==> forge build (solc-js 0.8.26, offline)\n'
(cd contracts && "$root/node_modules/.bin/forge" build --offline)

printf '\n==> cargo test -p eden-contracts-diff\n'
cargo test -p eden-contracts-diff --locked "$@"
