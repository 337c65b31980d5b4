#!/usr/bin/env bash
# Builds the JavaScript API of eden-core:
#   core/pkg       ES module for the web   (wasm-bindgen --target web)
#   core/pkg-node  CommonJS package for Node, require('./core/pkg-node') (--target nodejs)
# from one `cargo build --profile pkg` (release, opt-level 3) of the wasm32 cdylib, then
# optimises the wasm with binaryen's wasm-opt -O3 when node_modules/.bin/wasm-opt exists.
# Idempotent; respects CARGO_TARGET_DIR. Needs `wasm-bindgen` (the Cargo.lock version) on PATH.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
WASM="$TARGET_DIR/wasm32-unknown-unknown/pkg/eden_core.wasm"
WASM_BINDGEN="${WASM_BINDGEN:-wasm-bindgen}"
if ! command -v "$WASM_BINDGEN" >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/wasm-bindgen" ]; then
  WASM_BINDGEN="$HOME/.cargo/bin/wasm-bindgen"
fi

# The wasm-bindgen CLI must match the wasm-bindgen crate in Cargo.lock exactly.
want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
have="$("$WASM_BINDGEN" --version 2>/dev/null | awk '{ print $2 }' || true)"
if [ -z "$have" ]; then
  echo "build-pkg: wasm-bindgen not found; install it with: cargo install wasm-bindgen-cli --version $want --locked" >&2
  exit 1
fi
if [ "$have" != "$want" ]; then
  echo "build-pkg: wasm-bindgen $have on PATH, but Cargo.lock has $want; run: cargo install wasm-bindgen-cli --version $want --locked" >&2
  exit 1
fi

echo "build-pkg: cargo build -p eden-core --lib --features js --target wasm32-unknown-unknown --profile pkg"
cargo build -p eden-core --lib --features js --target wasm32-unknown-unknown --profile pkg

WASM_OPT="$ROOT/node_modules/.bin/wasm-opt"
TMP_ROOT="$(mktemp -d)"
trap 'rm -rf "$TMP_ROOT"' EXIT
build() { # <target> <out-dir>
  local target="$1" out="$2" tmp="$TMP_ROOT/$1"
  mkdir -p "$tmp"
  echo "build-pkg: wasm-bindgen --target $target -> ${out#"$ROOT"/}"
  "$WASM_BINDGEN" --target "$target" --out-dir "$tmp" --out-name eden_core "$WASM"
  if [ -x "$WASM_OPT" ]; then
    echo "build-pkg: wasm-opt -O3 ${out#"$ROOT"/}/eden_core_bg.wasm"
    "$WASM_OPT" -O3 \
      --enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int \
      --enable-sign-ext --enable-reference-types --enable-multivalue \
      "$tmp/eden_core_bg.wasm" -o "$tmp/eden_core_bg.opt.wasm"
    mv "$tmp/eden_core_bg.opt.wasm" "$tmp/eden_core_bg.wasm"
  else
    echo "build-pkg: node_modules/.bin/wasm-opt not found (npm install); skipping wasm-opt"
  fi
  rm -rf "$out"
  mkdir -p "$out"
  cp -R "$tmp"/. "$out"/
}

build web "$ROOT/core/pkg"
build nodejs "$ROOT/core/pkg-node"

# wasm-bindgen writes no package.json; write a minimal one for each so Node can require() the
# directory and bundlers can import it.
version="$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)"
cat >"$ROOT/core/pkg-node/package.json" <<EOF
{
  "name": "eden-core-node",
  "version": "$version",
  "description": "eden-core JavaScript API for Node (wasm-bindgen --target nodejs)",
  "main": "eden_core.js",
  "types": "eden_core.d.ts",
  "files": ["eden_core.js", "eden_core.d.ts", "eden_core_bg.wasm", "eden_core_bg.wasm.d.ts"]
}
EOF
cat >"$ROOT/core/pkg/package.json" <<EOF
{
  "name": "eden-core",
  "version": "$version",
  "description": "eden-core JavaScript API for the web (wasm-bindgen --target web)",
  "type": "module",
  "main": "eden_core.js",
  "module": "eden_core.js",
  "types": "eden_core.d.ts",
  "files": ["eden_core.js", "eden_core.d.ts", "eden_core_bg.wasm", "eden_core_bg.wasm.d.ts"]
}
EOF

echo "build-pkg: done: core/pkg (web), core/pkg-node (node)"
