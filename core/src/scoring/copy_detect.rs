//! Deterministic copy detection for theses (C8): word-shingle Jaccard similarity.
//!
//! The measure, exactly (anyone can reimplement it):
//! 1. **Normalise** the text: Unicode lowercase (Rust `str::to_lowercase`); then every
//!    alphanumeric character (Unicode `Alphabetic` or `Numeric`) is kept, every whitespace
//!    character becomes a space, and every other character (punctuation, symbols, combining marks,
//!    zero-width and control characters) is **deleted** (so `c.o.p.y` and `co-py` read `copy`);
//!    finally runs of spaces collapse to one and the ends are trimmed.
//! 2. **Shingles**: the set of distinct word 5-grams ([`SHINGLE_WORDS`]), each the five words
//!    joined by one space. A text of 1–4 words has exactly one shingle (all its words); an empty
//!    normalised text has none.
//! 3. **Jaccard** `J = |A ∩ B| / |A ∪ B|` as an exact rational; `J = 0` when both sets are empty.
//!    Thresholds are compared by integer cross-multiplication, never floats:
//!    `J ≥ 4/5` → copy, `J ≥ 1/2` → derivative, `J ≥ 3/10` → similar, else original.
//! 4. **Order**: a thesis is compared with every earlier thesis (submission order); the best
//!    match is the highest `J` (ties: the earliest). Its verdict is that of the best match and
//!    `matchedThesis` is the best match's hash (zero for an original).
//!
//! A thesis's hash ([`thesis_hash`]) is `keccak256` of its UTF-8 bytes as submitted (not
//! normalised); it identifies the submission. `similarityBps` is `⌊J·10 000⌋`.
//!
//! Limits: homoglyphs (e.g. Cyrillic `а` for Latin `a`) and texts without spaces (CJK) are
//! not handled specially; reworded paraphrase is not a copy by this measure.

use alloy_primitives::{keccak256, B256, U256};

/// The longest thesis a `ScorerRegistry` takes, its sources included, in UTF-8 bytes (§4, decided:
/// 16 KiB; `ScorerRegistry.MAX_THESIS_BYTES`). The text is on chain, in `Scored`.
pub const MAX_THESIS_BYTES: usize = 16_384;

/// Words per shingle.
pub const SHINGLE_WORDS: usize = 5;
/// `J ≥ 3/10` → similar.
pub const SIMILAR_THRESHOLD: (u64, u64) = (3, 10);
/// `J ≥ 1/2` → derivative.
pub const DERIVATIVE_THRESHOLD: (u64, u64) = (1, 2);
/// `J ≥ 4/5` → copy.
pub const COPY_THRESHOLD: (u64, u64) = (4, 5);

/// Originality verdict, shared with the C5 quality leaf (`uint8` codes 0 original, 1 similar,
/// 2 derivative, 3 copy).
pub use crate::leaves::Verdict;

/// Verdict for a Jaccard similarity `shared / union` (thresholds in the module doc).
pub fn verdict_for(sim: Similarity) -> Verdict {
    if sim.at_least(COPY_THRESHOLD) {
        Verdict::Copy
    } else if sim.at_least(DERIVATIVE_THRESHOLD) {
        Verdict::Derivative
    } else if sim.at_least(SIMILAR_THRESHOLD) {
        Verdict::Similar
    } else {
        Verdict::Original
    }
}

/// Exact Jaccard similarity `shared / union` (`0/0` means 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Similarity {
    /// `|A ∩ B|`.
    pub shared: u64,
    /// `|A ∪ B|`.
    pub union: u64,
}

impl Similarity {
    /// `shared/union ≥ num/den`, by cross-multiplication (false when `union = 0`).
    pub fn at_least(self, (num, den): (u64, u64)) -> bool {
        self.union > 0
            && u128::from(self.shared) * u128::from(den) >= u128::from(num) * u128::from(self.union)
    }

    /// `self > other` as rationals (`0/0` counts as 0).
    pub fn greater_than(self, other: Similarity) -> bool {
        let l = u128::from(self.shared) * u128::from(other.union.max(1));
        let r = u128::from(other.shared) * u128::from(self.union.max(1));
        l > r
    }

    /// `⌊J·10 000⌋`.
    pub fn bps(self) -> u32 {
        if self.union == 0 {
            return 0;
        }
        (u128::from(self.shared) * 10_000 / u128::from(self.union)) as u32
    }
}

/// Step 1: the normalised text.
pub fn normalise_text(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut pending_space = false;
    for ch in lower.chars() {
        if ch.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(ch);
        } else if ch.is_whitespace() {
            pending_space = true;
        }
    }
    out
}

/// Step 2: the sorted set of distinct word shingles of a **normalised** text.
pub fn shingles(normalised: &str) -> Vec<String> {
    let words: Vec<&str> = normalised.split(' ').filter(|w| !w.is_empty()).collect();
    let mut set: Vec<String> = if words.is_empty() {
        Vec::new()
    } else if words.len() < SHINGLE_WORDS {
        vec![words.join(" ")]
    } else {
        words.windows(SHINGLE_WORDS).map(|w| w.join(" ")).collect()
    };
    set.sort_unstable();
    set.dedup();
    set
}

/// Step 3: Jaccard similarity of two sorted, distinct shingle sets.
pub fn jaccard(a: &[String], b: &[String]) -> Similarity {
    let (mut i, mut j, mut shared) = (0usize, 0usize, 0u64);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = (a.len() as u64)
        .saturating_add(b.len() as u64)
        .saturating_sub(shared);
    Similarity { shared, union }
}

/// `keccak256` of the thesis text's UTF-8 bytes: the thesis hash used as its identity.
pub fn thesis_hash(text: &str) -> B256 {
    keccak256(text.as_bytes())
}

/// Result of checking one thesis against the earlier ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopyResult {
    /// Verdict of the best match.
    pub verdict: Verdict,
    /// Hash of the best-matching earlier thesis; zero for an original.
    pub matched_thesis: B256,
    /// The best similarity.
    pub similarity: Similarity,
}

impl CopyResult {
    /// `⌊J·10 000⌋` of the best match.
    pub fn similarity_bps(&self) -> u32 {
        self.similarity.bps()
    }
}

fn best_match<'a>(
    mine: &[String],
    earlier: impl Iterator<Item = (B256, &'a [String])>,
) -> CopyResult {
    let mut best: Option<(B256, Similarity)> = None;
    for (hash, theirs) in earlier {
        let sim = jaccard(mine, theirs);
        if best.is_none_or(|(_, b)| sim.greater_than(b)) {
            best = Some((hash, sim));
        }
    }
    let (hash, similarity) = best.unwrap_or((B256::ZERO, Similarity::default()));
    let verdict = verdict_for(similarity);
    CopyResult {
        verdict,
        matched_thesis: if verdict == Verdict::Original {
            B256::ZERO
        } else {
            hash
        },
        similarity,
    }
}

/// Checks `text` against earlier theses `(hash, text)` (the app's local check before paying).
pub fn copy_check(text: &str, earlier: &[(B256, &str)]) -> CopyResult {
    let mine = shingles(&normalise_text(text));
    let theirs: Vec<(B256, Vec<String>)> = earlier
        .iter()
        .map(|(h, t)| (*h, shingles(&normalise_text(t))))
        .collect();
    best_match(&mine, theirs.iter().map(|(h, s)| (*h, s.as_slice())))
}

/// Runs detection over theses `(hash, text)` in submission order: each against all earlier ones.
pub fn detect_in_order(theses: &[(B256, &str)]) -> Vec<CopyResult> {
    let sets: Vec<Vec<String>> = theses
        .iter()
        .map(|(_, t)| shingles(&normalise_text(t)))
        .collect();
    (0..theses.len())
        .map(|k| {
            let mine = sets.get(k).map(Vec::as_slice).unwrap_or(&[]);
            best_match(
                mine,
                theses
                    .iter()
                    .zip(&sets)
                    .take(k)
                    .map(|((h, _), s)| (*h, s.as_slice())),
            )
        })
        .collect()
}

/// C8 in the chain's order (§4: theses are on chain, so the submission order is the
/// `ScorerRegistry` score id): the copy check of score `score_id`'s text against every text scored
/// before it (a lower score id), whatever the order of `scored` (`(score id, thesis hash, text)`,
/// from the `Scored` events). `None` when `score_id` is not in `scored`. A text whose keccak-256 is
/// not its hash is left out (it is not what the registry hashed).
pub fn verdict_in_chain_order(score_id: U256, scored: &[(U256, B256, &str)]) -> Option<CopyResult> {
    let genuine = |(_, h, t): &&(U256, B256, &str)| thesis_hash(t) == *h;
    let (_, _, text) = scored
        .iter()
        .filter(genuine)
        .find(|(id, ..)| *id == score_id)?;
    let mut earlier: Vec<&(U256, B256, &str)> = scored
        .iter()
        .filter(genuine)
        .filter(|(id, ..)| *id < score_id)
        .collect();
    earlier.sort_by_key(|(id, ..)| *id);
    let earlier: Vec<(B256, &str)> = earlier.into_iter().map(|(_, h, t)| (*h, *t)).collect();
    Some(copy_check(text, &earlier))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const A: &str = "Revenue grew steadily for eight weeks because the agent resolved more support tickets \
        than any other project in the track, and the settlement data from the processor agrees with the claims.";

    #[test]
    fn the_chain_order_decides_who_copied_whom() {
        let b = "A completely different thesis about holder growth and the audited treasury report of the project.";
        let (ha, hb) = (thesis_hash(A), thesis_hash(b));
        let id = U256::from;
        // Given out of order: score 7 (A again) is compared with scores 3 (A) and 5 (b) only.
        let scored = [(id(7), ha, A), (id(5), hb, b), (id(3), ha, A)];
        let later = verdict_in_chain_order(id(7), &scored).unwrap();
        assert_eq!(later.verdict, Verdict::Copy);
        assert_eq!(later.matched_thesis, ha);
        // The first score of A has nothing before it but b: original.
        let first = verdict_in_chain_order(id(3), &scored).unwrap();
        assert_eq!(first.verdict, Verdict::Original);
        assert_eq!(first.matched_thesis, B256::ZERO);
        assert!(verdict_in_chain_order(id(4), &scored).is_none());
        // A text that is not what the registry hashed is not used, neither as the thesis nor as earlier.
        let forged = [(id(1), hb, A), (id(2), ha, A)];
        assert_eq!(
            verdict_in_chain_order(id(2), &forged).unwrap().verdict,
            Verdict::Original
        );
        assert!(verdict_in_chain_order(id(1), &forged).is_none());
    }

    #[test]
    fn normalisation() {
        assert_eq!(
            normalise_text("  Hello,   WORLD!\n\tC.o.p.y — co-py  "),
            "hello world copy copy"
        );
        assert_eq!(normalise_text("Ünïcode ÉTÉ"), "ünïcode été");
        assert_eq!(normalise_text("zero\u{200B}width"), "zerowidth");
        assert_eq!(normalise_text("!!! ..."), "");
    }

    #[test]
    fn shingles_of_short_and_long_texts() {
        assert!(shingles("").is_empty());
        assert_eq!(shingles("a b c"), vec!["a b c"]);
        assert_eq!(shingles("a b c d e f"), vec!["a b c d e", "b c d e f"]);
        assert_eq!(shingles("a a a a a a a"), vec!["a a a a a"]);
    }

    #[test]
    fn identical_is_copy_disjoint_is_original() {
        let h = thesis_hash(A);
        let r = copy_check(A, &[(h, A)]);
        assert_eq!(
            (r.verdict, r.matched_thesis, r.similarity_bps()),
            (Verdict::Copy, h, 10_000)
        );
        // punctuation and case changes do not hide a copy
        let r = copy_check(
            &A.to_uppercase().replace(' ', "  ").replace(',', ""),
            &[(h, A)],
        );
        assert_eq!(r.verdict, Verdict::Copy);
        let r = copy_check(
            "completely different words about another project entirely here",
            &[(h, A)],
        );
        assert_eq!(
            (r.verdict, r.matched_thesis, r.similarity_bps()),
            (Verdict::Original, B256::ZERO, 0)
        );
        assert_eq!(copy_check(A, &[]).verdict, Verdict::Original);
    }

    #[test]
    fn thresholds_are_exact_rationals() {
        let s = |shared, union| Similarity { shared, union };
        assert_eq!(verdict_for(s(4, 5)), Verdict::Copy);
        assert_eq!(verdict_for(s(79, 100)), Verdict::Derivative);
        assert_eq!(verdict_for(s(1, 2)), Verdict::Derivative);
        assert_eq!(verdict_for(s(49, 100)), Verdict::Similar);
        assert_eq!(verdict_for(s(3, 10)), Verdict::Similar);
        assert_eq!(verdict_for(s(299_999, 1_000_000)), Verdict::Original);
        assert_eq!(verdict_for(s(0, 0)), Verdict::Original);
        assert_eq!(s(1, 3).bps(), 3333);
    }

    #[test]
    fn partial_overlap_grades() {
        // 20 words; second text shares the first 14 words and differs after.
        let a: Vec<String> = (0..20).map(|i| format!("w{i}")).collect();
        let mut b = a.clone();
        for (k, x) in b.iter_mut().enumerate().skip(14) {
            *x = format!("x{k}");
        }
        let (ta, tb) = (a.join(" "), b.join(" "));
        // A: 16 shingles, B: 16, shared: shingles starting 0..=9 → 10; union 22; J = 10/22 ≈ 0.4545
        let r = copy_check(&tb, &[(thesis_hash(&ta), &ta)]);
        assert_eq!(
            r.similarity,
            Similarity {
                shared: 10,
                union: 22
            }
        );
        assert_eq!(r.verdict, Verdict::Similar);
        assert_eq!(r.matched_thesis, thesis_hash(&ta));
    }

    #[test]
    fn submission_order_and_best_match() {
        let orig = A;
        let copy = A;
        let other =
            "an unrelated thesis about a research project and its citations over the last month";
        let hs = [
            thesis_hash("first"),
            thesis_hash("second"),
            thesis_hash("third"),
        ];
        let out = detect_in_order(&[(hs[0], orig), (hs[1], other), (hs[2], copy)]);
        assert_eq!(out[0].verdict, Verdict::Original);
        assert_eq!(out[1].verdict, Verdict::Original);
        assert_eq!(
            (out[2].verdict, out[2].matched_thesis),
            (Verdict::Copy, hs[0])
        );
        // ties go to the earliest
        let out = detect_in_order(&[(hs[0], orig), (hs[1], orig), (hs[2], orig)]);
        assert_eq!(
            (out[1].matched_thesis, out[2].matched_thesis),
            (hs[0], hs[0])
        );
    }

    proptest! {
        #[test]
        fn never_panics(a in "\\PC{0,300}", b in "\\PC{0,300}") {
            let r = copy_check(&a, &[(B256::ZERO, &b)]);
            prop_assert!(r.similarity.shared <= r.similarity.union);
            prop_assert!(r.similarity_bps() <= 10_000);
        }

        #[test]
        fn identical_text_is_copy(words in proptest::collection::vec("[a-zA-Z0-9]{1,8}", 1..60), sep in "[ ,.;!?\n]{1,3}") {
            let text = words.join(&sep);
            let r = copy_check(&text, &[(thesis_hash(&text), &text)]);
            prop_assert_eq!(r.verdict, Verdict::Copy);
            prop_assert_eq!(r.matched_thesis, thesis_hash(&text));
        }

        #[test]
        fn disjoint_vocabularies_are_original(a in proptest::collection::vec("[a-m]{2,6}", 1..40), b in proptest::collection::vec("[n-z]{2,6}", 1..40)) {
            let (ta, tb) = (a.join(" "), b.join(" "));
            let r = copy_check(&tb, &[(thesis_hash(&ta), &ta)]);
            prop_assert_eq!(r.verdict, Verdict::Original);
            prop_assert_eq!(r.similarity.shared, 0);
        }

        #[test]
        fn jaccard_is_symmetric(a in "[a-c ]{0,80}", b in "[a-c ]{0,80}") {
            let (sa, sb) = (shingles(&normalise_text(&a)), shingles(&normalise_text(&b)));
            prop_assert_eq!(jaccard(&sa, &sb), jaccard(&sb, &sa));
        }
    }
}
