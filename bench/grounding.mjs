// Benchmark (a program): one thesis's grounding G in WebAssembly (core/pkg-node), the browser's share of
// re-checking a grade (C8): 20 quotes against a 39 kB HTML page, and 5 quotes against a 24 kB page, each the
// median of 50 runs, beside the goal (under 50 ms per thesis in the browser).
import { createRequire } from 'node:module';
const eden = createRequire(import.meta.url)('../core/pkg-node');

function run(label, thesis, snapshots) {
  const times = [];
  let g;
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    g = eden.thesisGrounding(thesis, snapshots);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`grounding in WASM (Node): ${label}: median ${times[25].toFixed(2)} ms, G = ${(Number(BigInt(g.groundingWad) / 10n ** 15n) / 1000).toFixed(3)} (goal: under 50 ms)`);
}

const big = `<html><body><p>${Array.from({ length: 2000 }, (_, i) => `word${i} value ${i * 7}`).join(' ')}</p></body></html>`;
const q20 = Array.from({ length: 20 }, (_, i) => `"word${i * 50} value ${i * 350} word${i * 50 + 1}" [1]`).join(', ');
run('20 quotes, 39 kB page', `${q20}\n[1]: https://a.example/p\n`, { 'https://a.example/p': big });
let page = '<html><body>';
for (let k = 0; k < 400; k++) page += `<p>In week ${k} project 3 <b>resolved ${k * 7 + 3} tickets</b> and served ${k * 13 + 3} users.</p>`;
page += '</body></html>';
const q5 = [0, 61, 122, 183, 244].map((k) => `"resolved ${k * 7 + 3} tickets and served ${k * 13 + 3} users" [1]`).join(', ');
run('5 quotes, 24 kB page', `${q5}\n[1]: https://r.example/3\n`, { 'https://r.example/3': page });
