#!/usr/bin/env bash
# Second half of the local deployment (contracts/script/DeployII.s.sol): v3 factory + stock/USDG pool + CallLedger,
# ROOT + its v4 pool with RootOracleHook + ETH/USD feed + RootPriceOracle, ScorerRegistry (wired to FeeLanes'
# scorer lane), DuelHook + two duel pools + a duel. Run it after scripts/deploy-local.sh on the same chain:
#
#   scripts/deploy-local.sh --start-anvil 8545 && scripts/deploy-local-ii.sh
#   scripts/deploy-local-ii.sh --rpc-url http://127.0.0.1:PORT
#
# Adds the addresses to .eden/deploy-<chainId>.json and merges it into .eden/addresses.json (keyed by chain id).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="$root/node_modules/.bin"
rpc="http://127.0.0.1:8545"
while [ $# -gt 0 ]; do
  case "$1" in
    --rpc-url) rpc="$2"; shift 2 ;;
    *) echo "deploy-local-ii.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$rpc" in
  http://127.0.0.1:*|http://localhost:*) ;;
  *) echo "deploy-local-ii.sh: refusing non-loopback RPC '$rpc'" >&2; exit 2 ;;
esac
chain_id=$("$bin/cast" chain-id --rpc-url "$rpc")
[ -f ".eden/deploy-$chain_id.json" ] || { echo "deploy-local-ii.sh: run scripts/deploy-local.sh first" >&2; exit 1; }
# shellcheck source=lib/forge-deploy.sh
. "$root/scripts/lib/forge-deploy.sh"
forge_deploy script/DeployII.s.sol:DeployII "$rpc" "$chain_id"
