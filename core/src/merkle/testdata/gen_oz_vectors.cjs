// Regenerates oz_vectors.json from @openzeppelin/merkle-tree 1.0.8: node core/src/merkle/testdata/gen_oz_vectors.cjs > core/src/merkle/testdata/oz_vectors.json (then re-indent)
const { StandardMerkleTree } = require('@openzeppelin/merkle-tree');
const cases = [
  [[["0x1111111111111111111111111111111111111111", "5000000000000000000"], ["0x2222222222222222222222222222222222222222", "2500000000000000000"]], ["address", "uint256"]],
  [[["a"], ["bb"], ["ccc"], [""], ["héllo ✓"]], ["string"]],
  [[[["1", "0x03"], "x"], [["2", "0x04"], "yy"], [["3", "0x05"], ""]], ["(uint256,address)", "string"]],
  [[[["1","2"], "0x"], [[], "0xdeadbeef"], [["255"], "0x00"]], ["uint8[]", "bytes"]],
  [[["-1"], ["-57896044618658097711785492504343953926634992332820282019728792003956564819968"], ["42"]], ["int256"]],
];
const out = [];
for (const [vals, enc] of cases) {
  const t = StandardMerkleTree.of(vals, enc);
  out.push({ dump: t.dump(), proofs: vals.map((_, i) => t.getProof(i)), multi: t.getMultiProof([0, vals.length - 1]), unsorted: StandardMerkleTree.of(vals, enc, {sortLeaves: false}).dump() });
}
console.log(JSON.stringify(out));
