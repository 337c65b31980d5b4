#!/usr/bin/env bash
# Deploys the Eden contracts to a local chain (and Multicall3 at its canonical address, if absent) and
# records their addresses.
#
#   scripts/deploy-local.sh                       deploy to http://127.0.0.1:8545 (anvil must be running)
#   scripts/deploy-local.sh --rpc-url URL         deploy to another loopback node
#   scripts/deploy-local.sh --start-anvil [PORT]  start a fresh anvil on 127.0.0.1:PORT (default 8545) first;
#                                                 its PID goes to .eden/anvil-PORT.pid (stop it with kill)
#
# Writes .eden/deploy-<chainId>.json and merges it into .eden/addresses.json, an object keyed by chain id
# (e.g. {"31337": {"launchpad": "0x…", …}}), which the app reads. Needs `npm ci` done (forge, anvil, cast
# from npm @foundry-rs/*, solc-js). Environment passed through to the forge script: DEPLOYER_PRIVATE_KEY,
# EDEN_SIGNER, EDEN_ADJUDICATOR, EDEN_BOND_WEI, EDEN_FIRST_EPOCH (see contracts/script/Deploy.s.sol).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="$root/node_modules/.bin"
rpc="http://127.0.0.1:8545"
start_anvil=0
port=8545
while [ $# -gt 0 ]; do
  case "$1" in
    --rpc-url) rpc="$2"; shift 2 ;;
    --start-anvil)
      start_anvil=1
      if [ $# -gt 1 ] && [[ "$2" =~ ^[0-9]+$ ]]; then port="$2"; shift; fi
      rpc="http://127.0.0.1:$port"; shift ;;
    *) echo "deploy-local.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$rpc" in
  http://127.0.0.1:*|http://localhost:*) ;;
  *) echo "deploy-local.sh: refusing non-loopback RPC '$rpc'" >&2; exit 2 ;;
esac
for tool in forge anvil cast; do
  [ -x "$bin/$tool" ] || { echo "deploy-local.sh: $tool missing; run 'npm ci' first" >&2; exit 1; }
done
mkdir -p .eden

if [ "$start_anvil" = 1 ]; then
  setsid "$bin/anvil" --host 127.0.0.1 --port "$port" --chain-id 31337 --silent > ".eden/anvil-$port.log" 2>&1 &
  echo $! > ".eden/anvil-$port.pid"
  for _ in $(seq 1 50); do
    "$bin/cast" chain-id --rpc-url "$rpc" > /dev/null 2>&1 && break
    sleep 0.2
  done
  echo "anvil running on $rpc (pid $(cat ".eden/anvil-$port.pid"))"
fi

chain_id=$("$bin/cast" chain-id --rpc-url "$rpc")
# Multicall3 at its canonical address, as on public chains (the app batches its reads through it).
node "$root/scripts/deploy-multicall3.mjs" --rpc-url "$rpc"
# shellcheck source=lib/forge-deploy.sh
. "$root/scripts/lib/forge-deploy.sh"
forge_deploy script/Deploy.s.sol:Deploy "$rpc" "$chain_id"
