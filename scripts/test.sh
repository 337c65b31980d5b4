#!/usr/bin/env bash
# Runs every test of the project. This is the README's test command and exactly what CI runs.
#
#  1. installs what is missing (scripts/setup.sh)
#  2. the Solidity contracts: eden-core regenerates the differential fixtures (random call histories,
#     scorer populations, duel swap sequences, prices), then forge build + forge test (unit, fuzz,
#     invariant, and the replay of those fixtures on the contracts), offline, solc-js
#  3. native Rust tests of the whole workspace (unit, property, and the EVM differential tests,
#     which read the contract artifacts built in step 2)
#  4. builds the JavaScript API (core/pkg, core/pkg-node) and runs the Node tests in tests/js/
#  5. the app's logic as wasm in headless Chromium (wasm-bindgen-test); then builds the app with Trunk
#     and runs the end-to-end tests in headless Chromium against a local anvil (tests/e2e/);
#     screenshots go to test-output/screenshots/
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

bash scripts/setup.sh app browser

step "Core fixtures for the contract differential tests (calls, rewards, duels, prices)"
cargo run --locked -q -p eden-contracts-diff --bin gen_fixtures -- contracts/test/fixtures

step "Contracts (scripts/test-contracts.sh)"
bash scripts/test-contracts.sh

step "Native tests (cargo test --workspace)"
cargo test --workspace --locked

step "JavaScript API packages (core/pkg, core/pkg-node)"
bash scripts/build-pkg.sh

step "Node tests (node --test tests/js/)"
node --test tests/js/

step "App logic in headless Chromium (wasm-bindgen-test)"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner CHROMEDRIVER=/usr/bin/chromedriver \
  cargo test --locked -p eden-app --target wasm32-unknown-unknown

step "App build (trunk build --release)"
trunk build --release

step "End-to-end tests in headless Chromium (node --test tests/e2e/)"
node --test tests/e2e/

printf '\nAll tests passed.\n'
