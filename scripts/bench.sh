#!/usr/bin/env bash
# Benchmarks (programs, not tests): prints measured numbers side by side with the reference.
#
#  1. Merkle: StandardMerkleTree.of + every proof, 10k and 100k [address, uint256] leaves:
#     @openzeppelin/merkle-tree (JS) vs our WASM module in Node vs native Rust (same data).
#  2. Scoring: one full epoch, 100k projects x 12 features (normalise, gate, smooth, leaves, root):
#     native Rust and WASM in Node.
#  3. Verified inputs and light publications (C21, C22): `eden epoch build` on 100k projects x 12 features from
#     three sources, every input attested, beside buildEpoch on the same inputs unsigned; signature checks per
#     second beside k256's raw recover rate on one and on every core; the light packs' size and one project's
#     light check, native (operator/examples/bench_build.rs); then in WASM: a 1,000-project cohort's
#     attestations recovered and the light check (bench/attest.mjs), and the cohort's attestations in headless
#     Chromium on the page thread and on Web Workers (bench/attest-browser.mjs, when Chromium is installed).
#  With --grader: the thesis grader (C8): G of 1,000 theses natively, one thesis in WASM, and theses graded per
#     minute with the embedded model (operator/examples/bench_grade.rs, bench/grounding.mjs); the output is also
#     written to bench/results/grader.txt.
#  4. With --pages: the app's pages against deployments of 10, 100 and 500 launches (and 1, 10, 50 more
#     epochs, positions and agents) through the RPC proxy at 0 and 100 ms added latency, in headless Chromium: HTTP requests,
#     JSON-RPC calls and time to content per page, beside the launch list's pre-#13 reads (bench/pages.mjs).
#     Builds what it needs first (the JS API, the contracts, the app).
#
# The 100k OpenZeppelin run alone takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

if [ "${1:-}" = "--grader" ]; then
  bash scripts/setup.sh model
  bash scripts/build-pkg.sh
  cargo build --locked -q -p eden-operator --example bench_grade --profile bench-native
  mkdir -p bench/results
  {
    printf '==> The thesis grader (C8), %s, %s cores\n' "$(date -u +%Y-%m-%d)" "$(nproc)"
    "${CARGO_TARGET_DIR:-target}/bench-native/examples/bench_grade"
    node bench/grounding.mjs
  } | tee bench/results/grader.txt
  exit 0
fi

if [ "${1:-}" = "--pages" ]; then
  bash scripts/setup.sh app browser
  bash scripts/build-pkg.sh
  (cd contracts && forge build --offline)
  trunk build --release
  printf '\n==> The app'"'"'s pages: round trips and time to content, N = 10, 100, 500 launches\n'
  exec node bench/pages.mjs
fi

bash scripts/setup.sh
bash scripts/build-pkg.sh
cargo build --locked -q -p eden-core --features native --examples --profile bench-native

printf '\n==> Merkle tree: of + all proofs (OpenZeppelin JS vs WASM vs native)\n'
node bench/merkle.mjs

printf '\n==> Scoring epoch, 100k projects x 12 features: native\n'
"${CARGO_TARGET_DIR:-target}/bench-native/examples/bench_epoch"

printf '\n==> Scoring epoch, 100k projects x 12 features: WASM in Node\n'
node bench/epoch.mjs

printf '\n==> eden epoch build, 100k projects x 12 features from 3 sources, every input attested: native\n'
cargo build --locked -q -p eden-operator --example bench_build --profile bench-native
"${CARGO_TARGET_DIR:-target}/bench-native/examples/bench_build"

printf '\n==> Attestations and the light check: WASM in Node\n'
node bench/attest.mjs

printf '\n==> A cohort'"'"'s attestations in a browser: WASM in headless Chromium, page thread and Web Workers\n'
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  node bench/attest-browser.mjs
else
  echo "  skipped: no Chromium here (bash scripts/setup.sh browser installs it)"
fi
