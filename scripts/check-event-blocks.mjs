// D12: every event an Eden contract emits of its own is in a block it recorded (contracts/src/libraries/EventBlocks.sol),
// so the app reads those blocks instead of scanning the chain. This check fails when an `emit` in contracts/src is not
// directly preceded by `_markEventBlock(...)`, or a contract that emits does not inherit `EventBlocks`.
//
//   node scripts/check-event-blocks.mjs      (run by scripts/test-contracts.sh)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'contracts', 'src');
const problems = [];
for (const name of readdirSync(SRC).filter((f) => f.endsWith('.sol'))) {
  const lines = readFileSync(join(SRC, name), 'utf8').split('\n');
  let emits = 0;
  lines.forEach((line, i) => {
    if (!/^\s*(?:if \(.*\)\s*)?emit\s/.test(line)) return;
    emits += 1;
    if (!/^\s*_markEventBlock\(.*\);\s*$/.test(lines[i - 1] ?? '')) {
      problems.push(`${name}:${i + 1}: emit without _markEventBlock() on the line before`);
    }
  });
  if (emits > 0 && !lines.some((l) => /^contract \w+ is .*\bEventBlocks\b/.test(l))) {
    problems.push(`${name}: emits events but does not inherit EventBlocks`);
  }
}
if (problems.length) {
  console.error(`check-event-blocks: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('check-event-blocks: every emit in contracts/src records its block');
