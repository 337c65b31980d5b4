#!/usr/bin/env node
// Layers depend one way (issue 37): fails when a crate's modules import one another in a circle.
//
//   node scripts/import-cycles.mjs core/src app/src operator/src
//
// A module is a file (`a/b.rs` or `a/b/mod.rs` is `a::b`); it imports what its code outside its
// `#[cfg(test)]` part names through `crate::…` or `super::…` paths, resolved to the longest module
// prefix (an item inside a module counts as that module; a module's own children do not count as
// imports of it). Cycles are the strongly connected components with more than one module (Tarjan).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.rs') ? [join(dir, e.name)] : []);
}

function moduleName(root, file) {
  const parts = relative(root, file).slice(0, -3).split('/');
  if (['mod', 'lib', 'main'].includes(parts.at(-1))) parts.pop();
  return parts.join('::');
}

export function graph(root) {
  const mods = new Map(files(root).map((f) => [moduleName(root, f), f]));
  const resolve = (path) => {
    const parts = path.split('::').filter(Boolean);
    for (; parts.length; parts.pop()) if (mods.has(parts.join('::'))) return parts.join('::');
    return null;
  };
  const g = new Map();
  for (const [m, f] of mods) {
    const src = readFileSync(f, 'utf8').split('#[cfg(test)]')[0].replace(/\/\/.*$/gm, '');
    const here = m ? m.split('::') : [];
    const edges = new Set();
    const add = (t) => { if (t !== null && t !== m && t !== '' && !m.startsWith(`${t}::`)) edges.add(t); };
    for (const [, p] of src.matchAll(/crate::([A-Za-z0-9_:]+)/g)) add(resolve(p));
    for (const [, p] of src.matchAll(/\bsuper::([A-Za-z0-9_:]+)/g)) add(resolve([...here.slice(0, -1), p].join('::')));
    g.set(m, edges);
  }
  return g;
}

export function cycles(g) {
  let i = 0;
  const idx = new Map(), low = new Map(), stack = [], on = new Set(), out = [];
  const visit = (v) => {
    idx.set(v, i); low.set(v, i); i += 1; stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      for (let w; w !== v;) { w = stack.pop(); on.delete(w); c.push(w); }
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let bad = 0;
  for (const root of process.argv.slice(2)) {
    const g = graph(root);
    const found = cycles(g);
    const edges = [...g.values()].reduce((n, s) => n + s.size, 0);
    console.log(`import-cycles: ${root}: ${g.size} modules, ${edges} imports, ${found.length} cycles`);
    for (const c of found) console.log(`  cycle: ${c.join(' ↔ ')}`);
    bad += found.length;
  }
  process.exit(bad ? 1 : 0);
}
