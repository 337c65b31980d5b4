#!/usr/bin/env bash
# Builds and serves the Eden app at http://127.0.0.1:8080 (the README's run command).
# On a fresh machine it first installs what is missing (scripts/setup.sh app): the first run takes
# about 15 minutes (Trunk is compiled once), later runs start in seconds. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

bash scripts/setup.sh app

port="${EDEN_PORT:-8080}"
printf '\n==> Building and serving the app: http://127.0.0.1:%s\n' "$port"
exec trunk serve --release --address 127.0.0.1 --port "$port"
