#!/usr/bin/env bash
# Benchmarks (programs, not tests): prints measured numbers side by side with the reference.
#
#  1. Merkle: StandardMerkleTree.of + every proof, 10k and 100k [address, uint256] leaves:
#     @openzeppelin/merkle-tree (JS) vs our WASM module in Node vs native Rust (same data).
#  2. Scoring: one full epoch, 100k projects x 12 features (normalise, gate, smooth, leaves, root):
#     native Rust and WASM in Node.
#
# The 100k OpenZeppelin run alone takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

bash scripts/setup.sh
bash scripts/build-pkg.sh
cargo build --locked -q -p eden-core --examples --profile bench-native

printf '\n==> Merkle tree: of + all proofs (OpenZeppelin JS vs WASM vs native)\n'
node bench/merkle.mjs

printf '\n==> Scoring epoch, 100k projects x 12 features: native\n'
"${CARGO_TARGET_DIR:-target}/bench-native/examples/bench_epoch"

printf '\n==> Scoring epoch, 100k projects x 12 features: WASM in Node\n'
node bench/epoch.mjs
