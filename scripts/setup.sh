#!/usr/bin/env bash
# Installs, only where missing, everything the build and tests need. Idempotent; safe to rerun.
#
#   scripts/setup.sh          core toolchain: wasm32 target, npm dev dependencies, wasm-bindgen-cli
#   scripts/setup.sh app      the above plus Trunk (for building and serving the app)
#   scripts/setup.sh browser  Debian's Chromium and ChromeDriver, for the browser tests (playwright-core
#                             drives Chromium; wasm-bindgen-test-runner drives ChromeDriver)
#
# Everything comes from the package registries (crates.io, npm). Nothing downloads its own binaries:
# Trunk is pinned to tools on PATH through Trunk.toml, wasm-opt comes from npm `binaryen`.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14   # Trunk 0.22 needs rustc >= 1.96
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

want_app=0
want_browser=0
for arg in "$@"; do
  case "$arg" in
    app) want_app=1 ;;
    browser) want_browser=1 ;;
    *) echo "setup.sh: unknown component '$arg' (known: app, browser)" >&2; exit 2 ;;
  esac
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "Adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown
fi

# npm dev dependencies (OpenZeppelin merkle-tree reference, Uniswap v4 bytecode, binaryen's wasm-opt).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "Installing npm dev dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen version in Cargo.lock.
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -z "$wb_version" ]; then echo "setup.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  step "Installing wasm-bindgen-cli $wb_version (about 3 minutes)"
  # Not --locked: the CLI's own lock file names a crate version that is not on the registry.
  cargo install wasm-bindgen-cli --version "$wb_version" --force
fi

if [ "$want_app" = 1 ]; then
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
    step "Installing Trunk $TRUNK_VERSION (about 11 minutes, once)"
    cargo install trunk --version "$TRUNK_VERSION" --locked --force
  fi
fi

if [ "$want_browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  step "Installing Debian's Chromium and ChromeDriver for the browser tests (about 30 seconds)"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver
fi
