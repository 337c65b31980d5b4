#!/usr/bin/env node
// Makes solc-js (npm `solc`) answer like a native `solc` binary for forge (`solc = "tools/solc"`).
//
// forge only ever calls two modes:
//   solc --version                       -> "solc, the solidity compiler ...\nVersion: 0.8.26+commit.<h>.<platform>"
//   solc [flags] --standard-json         -> Standard JSON in on stdin, out on stdout
// Flags honoured for the import callback: --base-path, --include-path (repeatable), --allow-paths (comma list).
// forge normally inlines every source in the JSON input, so the callback is a fallback; it never reads
// outside the allowed roots.
//
// Trap avoided here: solc-js's own `compile()` passes the input through emscripten's `ccall`, which copies
// string arguments onto the small wasm stack. A standard-JSON input of a few hundred KB (a full build with
// forge-std and v4-core is ~1.5 MB) overflows it: "RuntimeError: memory access out of bounds" or
// "Aborted()". So the input is copied to the wasm heap and `solidity_compile` is called directly.
'use strict';
const fs = require('fs');
const path = require('path');

// Resolve `solc` from the repository's node_modules (this file lives in <repo>/contracts/tools/).
const solcDir = path.dirname(require.resolve('solc/package.json', { paths: [path.resolve(__dirname, '..', '..')] }));
const soljson = require(path.join(solcDir, 'soljson.js'));

const args = process.argv.slice(2);

if (args.includes('--version') || args.includes('-v')) {
  // Native format: forge parses the "Version: X.Y.Z+commit.HASH..." line.
  const version = soljson.cwrap('solidity_version', 'string', [])();
  process.stdout.write('solc, the solidity compiler commandline interface\nVersion: ' +
    version.replace('.Emscripten.clang', '.Linux.g++') + '\n');
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

function findImport(importPath) {
  const candidates = path.isAbsolute(importPath) ? [importPath] : roots.map((r) => path.resolve(r, importPath));
  for (const file of candidates) {
    if (inside(file) && fs.existsSync(file)) return { contents: fs.readFileSync(file, 'utf8') };
  }
  return { error: `File not found: ${importPath}` };
}

// Heap-allocated C string (solc frees what it gets from callbacks on solidity_reset; we free our input).
function heapString(str, alloc) {
  const n = soljson.lengthBytesUTF8(str) + 1;
  const ptr = alloc(n);
  soljson.stringToUTF8(str, ptr, n);
  return ptr;
}

// solidity_compile read callback: (context, kind, data, contents*, error*).
const callback = soljson.addFunction((context, kindPtr, dataPtr, contentsOut, errorOut) => {
  const kind = soljson.UTF8ToString(kindPtr);
  const result = kind === 'source' ? findImport(soljson.UTF8ToString(dataPtr)) : { error: `${kind} callback not supported` };
  const solAlloc = soljson._solidity_alloc;
  if (typeof result.contents === 'string') soljson.setValue(contentsOut, heapString(result.contents, solAlloc), '*');
  if (typeof result.error === 'string') soljson.setValue(errorOut, heapString(result.error, solAlloc), '*');
}, 'viiiii');

const input = fs.readFileSync(0, 'utf8');
const inputPtr = heapString(input, soljson._malloc);
const outputPtr = soljson._solidity_compile(inputPtr, callback, 0);
const output = soljson.UTF8ToString(outputPtr);
soljson._free(inputPtr);
soljson.removeFunction(callback);
soljson._solidity_reset();
process.stdout.write(output);
