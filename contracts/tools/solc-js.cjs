#!/usr/bin/env node
// Makes solc-js (npm `solc`) answer like a native `solc` binary for forge (`solc = "tools/solc"`).
//
// forge only ever calls two modes:
//   solc --version                       -> "solc, the solidity compiler ...\nVersion: 0.8.26+commit.<h>.<platform>"
//   solc [flags] --standard-json         -> Standard JSON in on stdin, out on stdout
// Flags honoured for the import callback: --base-path, --include-path (repeatable), --allow-paths (comma list).
// forge normally inlines every source in the JSON input, so the callback is a fallback; it never reads
// outside the allowed roots.
'use strict';
const fs = require('fs');
const path = require('path');

// Resolve `solc` from the repository's node_modules (this file lives in <repo>/contracts/tools/).
const solc = require(require.resolve('solc', { paths: [path.resolve(__dirname, '..', '..')] }));

const args = process.argv.slice(2);

if (args.includes('--version') || args.includes('-v')) {
  // Native format: forge parses the "Version: X.Y.Z+commit.HASH..." line.
  process.stdout.write('solc, the solidity compiler commandline interface\nVersion: ' +
    solc.version().replace('.Emscripten.clang', '.Linux.g++') + '\n');
  process.exit(0);
}

if (!args.includes('--standard-json')) {
  process.stderr.write('solc-js wrapper: only --version and --standard-json are supported\n');
  process.exit(2);
}

let basePath = process.cwd();
const includePaths = [];
const allowPaths = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const next = () => args[++i];
  if (a === '--base-path') basePath = path.resolve(next());
  else if (a === '--include-path') includePaths.push(path.resolve(next()));
  else if (a === '--allow-paths') allowPaths.push(...next().split(',').filter(Boolean).map((p) => path.resolve(p)));
}
const roots = [basePath, ...includePaths];
const allowed = [...roots, ...allowPaths];
const inside = (file) => allowed.some((r) => file === r || file.startsWith(r + path.sep));

function findImports(importPath) {
  const candidates = path.isAbsolute(importPath) ? [importPath] : roots.map((r) => path.resolve(r, importPath));
  for (const file of candidates) {
    if (inside(file) && fs.existsSync(file)) return { contents: fs.readFileSync(file, 'utf8') };
  }
  return { error: `File not found: ${importPath}` };
}

const input = fs.readFileSync(0, 'utf8');
const output = solc.compile(input, { import: findImports });
process.stdout.write(output);
