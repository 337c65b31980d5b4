#!/usr/bin/env bash
# What alloy's provider would add to the app's wasm (#37: "consider alloy's provider with its retry and
# multicall layers in the browser too, if its wasm size allows"). Builds bench/alloy-wasm twice for wasm32 in
# the app's release profile: once reading a contract through alloy's provider (HTTP over fetch, the retry
# layer, Multicall3 aggregation, a `sol!` contract instance), once encoding the same call by hand; runs
# wasm-bindgen and wasm-opt -Oz on both as Trunk does, and prints the sizes beside the app's own wasm.
# Writes bench/results/alloy-wasm.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}/alloy-wasm
build() {
  (cd bench/alloy-wasm && CARGO_TARGET_DIR="$TARGET" cargo build -q --locked --release --target wasm32-unknown-unknown "$@")
}
size_of() {
  local name=$1
  wasm-bindgen --target web --out-dir "$OUT/$name" "$TARGET/wasm32-unknown-unknown/release/alloy_wasm_probe.wasm"
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    "$OUT/$name/alloy_wasm_probe_bg.wasm" -o "$OUT/$name.wasm"
  echo "$(stat -c %s "$OUT/$name.wasm") $(gzip -9 -c "$OUT/$name.wasm" | wc -c)"
}
build
read -r base base_gz < <(size_of base)
build --features provider
read -r prov prov_gz < <(size_of provider)
app=$(ls dist/wasm-*/eden-app_bg.wasm 2>/dev/null | head -1 || true)
{
  echo "# alloy's provider in the browser: wasm size (scripts/bench-alloy-wasm.sh)"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
  printf '%-52s %12s %12s\n' "module (wasm-bindgen, wasm-opt -Oz)" "bytes" "gzip -9"
  printf '%-52s %12s %12s\n' "one eth_call encoded by hand (baseline)" "$base" "$base_gz"
  printf '%-52s %12s %12s\n' "alloy provider: http, retry layer, multicall" "$prov" "$prov_gz"
  printf '%-52s %12s %12s\n' "what the provider adds" "$((prov - base))" "$((prov_gz - base_gz))"
  if [ -n "$app" ]; then
    printf '%-52s %12s %12s\n' "the app's main wasm module (dist/wasm-*/, for scale)" "$(stat -c %s "$app")" "$(gzip -9 -c "$app" | wc -c)"
  fi
} | tee bench/results/alloy-wasm.txt
