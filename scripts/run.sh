#!/usr/bin/env bash
# The README's run command: a local chain with a demo world and the app, in one command.
#
#  1. installs what is missing (scripts/setup.sh app model; the JavaScript API core/pkg-node if absent)
#  2. starts anvil on 127.0.0.1 (chain id 31337, the fixed dev mnemonic "test test … junk";
#     port EDEN_RPC_PORT, default 8545, or the next free one)
#  3. deploys Uniswap v3/v4 and the protocol (scripts/deploy-local.sh, then scripts/deploy-local-ii.sh),
#     which write the network description; it becomes the app's default (public/networks/local.json)
#  4. seeds a demo world through real transactions (scripts/seed-demo.mjs → public/demo/; its epochs through
#     the operator's tool, target/debug/eden, which the seeder builds with cargo when it is missing or stale)
#  5. builds the app and serves it, brotli/gzip precompressed (scripts/serve.mjs), at http://127.0.0.1:8080
#     (EDEN_PORT changes it), and prints the URL
#  6. starts a watchtower beside them (`eden watch`, C24, dev account 5's key and bond; its log in
#     .eden/watch.log): it checks every pending root against its publication and challenges a wrong one
#  7. starts a keeper beside them (`eden keep`, dev account 6's key; its log in .eden/keep.log): it finalizes
#     roots past their window, records final scores in the fee lanes, collects and pulls fees, rolls over
#     closed payout rounds, settles idle duel rounds and expires stale commits, each once, when due
# Ctrl-C (or any exit) stops everything it started: the keeper, the watchtower, the app server and anvil, by PID.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

bash scripts/setup.sh app model
if [ ! -f core/pkg-node/eden_core.js ]; then
  step "Building the JavaScript API (core/pkg-node) for the seeding script"
  bash scripts/build-pkg.sh
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
rpc_port="${EDEN_RPC_PORT:-8545}"
while ! port_free "$rpc_port"; do rpc_port=$((rpc_port + 1)); done
app_port="${EDEN_PORT:-8080}"
if ! port_free "$app_port"; then echo "run.sh: port $app_port is busy (set EDEN_PORT)" >&2; exit 1; fi
rpc="http://127.0.0.1:$rpc_port"

anvil_pid=""
serve_pid=""
watch_pid=""
keep_pid=""
stop() {
  trap - EXIT INT TERM
  if [ -n "$keep_pid" ]; then kill "$keep_pid" 2>/dev/null || true; fi
  if [ -n "$watch_pid" ]; then kill "$watch_pid" 2>/dev/null || true; fi
  if [ -n "$serve_pid" ]; then kill -TERM -- "-$serve_pid" 2>/dev/null || kill "$serve_pid" 2>/dev/null || true; fi
  if [ -n "$anvil_pid" ]; then kill "$anvil_pid" 2>/dev/null || true; fi
  wait 2>/dev/null || true
  echo "stopped (keeper${keep_pid:+ pid $keep_pid}, watchtower${watch_pid:+ pid $watch_pid}, app server${serve_pid:+ pid $serve_pid}, anvil${anvil_pid:+ pid $anvil_pid})"
}
trap stop EXIT
trap 'exit 130' INT TERM

mkdir -p .eden
step "Starting anvil on $rpc (chain id 31337)"
anvil --host 127.0.0.1 --port "$rpc_port" --chain-id 31337 \
  --mnemonic "test test test test test test test test test test test junk" --silent > ".eden/anvil-$rpc_port.log" 2>&1 &
anvil_pid=$!
for _ in $(seq 1 100); do cast chain-id --rpc-url "$rpc" > /dev/null 2>&1 && break; sleep 0.1; done
cast chain-id --rpc-url "$rpc" > /dev/null || { echo "run.sh: anvil did not start (see .eden/anvil-$rpc_port.log)" >&2; exit 1; }

step "Deploying Uniswap v3/v4 and the Eden contracts (both halves)"
export EDEN_PUBLICATIONS="http://127.0.0.1:$app_port/public/demo/"
bash scripts/deploy-local.sh --rpc-url "$rpc"
bash scripts/deploy-local-ii.sh --rpc-url "$rpc"
mkdir -p public/networks
cp .eden/network-31337.json public/networks/local.json

step "Seeding the demo world (public/demo/)"
rm -rf public/demo
node scripts/seed-demo.mjs --rpc-url "$rpc" --out public/demo

step "Building the app (trunk build --release) and serving it precompressed (scripts/serve.mjs)"
trunk build --release
# Brotli and gzip beside each asset, caching by content hash, the SPA fallback: as a static host should.
setsid node scripts/serve.mjs --dir dist --address 127.0.0.1 --port "$app_port" &
serve_pid=$!
for _ in $(seq 1 600); do
  (exec 3<>"/dev/tcp/127.0.0.1/$app_port") 2>/dev/null && break
  kill -0 "$serve_pid" 2>/dev/null || { echo "run.sh: the app server exited" >&2; exit 1; }
  sleep 0.5
done
step "Starting a watchtower (eden watch, log in .eden/watch.log)"
# Dev account 5 of the fixed dev mnemonic (a local chain only): its bond backs any challenge.
EDEN_PRIVATE_KEY=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba \
  target/debug/eden --network .eden/network-31337.json --rpc-url "$rpc" watch --interval 15 > .eden/watch.log 2>&1 &
watch_pid=$!
step "Starting a keeper (eden keep, log in .eden/keep.log)"
# Dev account 6 of the fixed dev mnemonic (a local chain only): it pays the keeper duties' gas.
EDEN_PRIVATE_KEY=0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e \
  target/debug/eden --network .eden/network-31337.json --rpc-url "$rpc" keep --interval 30 > .eden/keep.log 2>&1 &
keep_pid=$!
printf '\n  Eden is running: http://127.0.0.1:%s/   (chain %s, anvil pid %s, watchtower pid %s, keeper pid %s)\n  Ctrl-C stops everything.\n\n' \
  "$app_port" "$rpc" "$anvil_pid" "$watch_pid" "$keep_pid"
wait "$serve_pid"
