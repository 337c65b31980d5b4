# Shared by scripts/deploy-local.sh and scripts/deploy-local-ii.sh (sourced, not run).
#
#   forge_deploy <script/File.s.sol:Contract> <rpc> <chain id>
#
# Builds the contracts, broadcasts the forge script from the deployer key (DEPLOYER_PRIVATE_KEY, default
# anvil account 0) and merges the script's .eden/deploy-<chainId>.json into .eden/addresses.json, an object
# keyed by chain id, then writes the network description .eden/network-<chainId>.json
# (scripts/write-network.mjs). Expects $root (the repository) and $bin (node_modules/.bin).
forge_deploy() {
  local script="$1" rpc="$2" chain_id="$3"
  local key="${DEPLOYER_PRIVATE_KEY:-0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80}" # anvil account 0
  (
    cd "$root/contracts"
    "$bin/forge" build --offline
    DEPLOYER_PRIVATE_KEY="$key" "$bin/forge" script "$script" --offline --rpc-url "$rpc" \
      --broadcast --private-key "$key" --slow -q
  )
  node -e '
const fs = require("fs");
const [file, out, chain] = process.argv.slice(1);
const all = fs.existsSync(out) ? JSON.parse(fs.readFileSync(out, "utf8")) : {};
all[chain] = JSON.parse(fs.readFileSync(file, "utf8"));
fs.writeFileSync(out, JSON.stringify(all, null, 2) + "\n");
' "$root/.eden/deploy-$chain_id.json" "$root/.eden/addresses.json" "$chain_id"
  echo "addresses for chain $chain_id written to .eden/addresses.json"
  # The network description (D1) the app reads: .eden/network-<chainId>.json, publications at
  # $EDEN_PUBLICATIONS (default http://127.0.0.1:8080/public/demo/).
  node "$root/scripts/write-network.mjs" --chain-id "$chain_id" --rpc-url "$rpc"
}
