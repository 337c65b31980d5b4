//! Parsing and checking of a pasted Merkle proof: pure logic over `eden_core::merkle`,
//! unit-tested natively. Every malformed field yields an [`InputError`] naming the field.

use alloy_primitives::{hex, B256};
use eden_core::merkle::{process_proof, LeafEncoding, Options, StandardMerkleTree};
use serde_json::Value;

/// What the person pasted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckInput {
    pub root: String,
    pub leaf_encoding: String,
    pub value: String,
    pub proof: String,
}

/// A readable problem with one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub field: &'static str,
    pub message: String,
}

fn bad(field: &'static str, message: impl Into<String>) -> InputError {
    InputError {
        field,
        message: message.into(),
    }
}

/// The verdict, with the hashes shown to the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub verified: bool,
    pub leaf_hash: String,
    pub computed_root: String,
    pub expected_root: String,
    pub proof_len: usize,
}

/// Parses a 32-byte hash written as `0x` + 64 hex digits.
fn parse_hash(field: &'static str, s: &str) -> Result<B256, InputError> {
    let t = s.trim().trim_matches('"');
    if t.is_empty() {
        return Err(bad(field, "this field is empty"));
    }
    let Some(digits) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) else {
        return Err(bad(field, format!("'{}' must start with 0x", shorten(t))));
    };
    if let Some(c) = digits.chars().find(|c| !c.is_ascii_hexdigit()) {
        return Err(bad(
            field,
            format!("'{c}' is not a hex digit in '{}'", shorten(t)),
        ));
    }
    if digits.len() != 64 {
        return Err(bad(
            field,
            format!(
                "a hash has 64 hex digits after 0x; this one has {}",
                digits.len()
            ),
        ));
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(digits, &mut out).map_err(|e| bad(field, e.to_string()))?;
    Ok(B256::from(out))
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 24 {
        format!("{}…", s.chars().take(24).collect::<String>())
    } else {
        s.to_owned()
    }
}

/// Splits `address, (uint256,bool), string` on top-level commas, or reads a JSON array of strings.
pub fn parse_leaf_encoding(s: &str) -> Result<Vec<String>, InputError> {
    const FIELD: &str = "Leaf encoding";
    let t = s.trim();
    if t.is_empty() {
        return Err(bad(
            FIELD,
            "this field is empty; give Solidity types such as: address, uint256",
        ));
    }
    if t.starts_with('[') {
        let v: Value =
            serde_json::from_str(t).map_err(|e| bad(FIELD, format!("not valid JSON: {e}")))?;
        let arr = v
            .as_array()
            .ok_or_else(|| bad(FIELD, "expected a JSON array of type names"))?;
        return arr
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(FIELD, format!("entry {} is not a string", i + 1)))
            })
            .collect();
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in t.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return Err(bad(FIELD, "unbalanced brackets"));
        }
        if c == ',' && depth == 0 {
            out.push(std::mem::take(&mut cur).trim().to_owned());
        } else {
            cur.push(c);
        }
    }
    if depth != 0 {
        return Err(bad(FIELD, "unbalanced brackets"));
    }
    out.push(cur.trim().to_owned());
    if let Some(i) = out.iter().position(String::is_empty) {
        return Err(bad(
            FIELD,
            format!("type {} is empty (stray comma?)", i + 1),
        ));
    }
    Ok(out)
}

/// Reads a proof: a JSON array of hashes, or hashes separated by new lines, spaces or commas.
pub fn parse_proof(s: &str) -> Result<Vec<B256>, InputError> {
    const FIELD: &str = "Proof";
    let t = s.trim();
    let items: Vec<String> = if t.starts_with('[') {
        let v: Value =
            serde_json::from_str(t).map_err(|e| bad(FIELD, format!("not valid JSON: {e}")))?;
        let arr = v
            .as_array()
            .ok_or_else(|| bad(FIELD, "expected a JSON array of hashes"))?;
        arr.iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| bad(FIELD, format!("entry {} is not a string", i + 1)))
            })
            .collect::<Result<_, _>>()?
    } else {
        t.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|x| !x.is_empty())
            .map(str::to_owned)
            .collect()
    };
    items
        .iter()
        .enumerate()
        .map(|(i, x)| {
            parse_hash(FIELD, x).map_err(|e| bad(FIELD, format!("hash {}: {}", i + 1, e.message)))
        })
        .collect()
}

/// Checks that `value`, hashed under `leaf_encoding`, reaches `root` through `proof`.
///
/// # Errors
/// An [`InputError`] naming the first malformed field. A well-formed proof that does not reach the
/// root is not an error: it is an [`Outcome`] with `verified == false`.
pub fn check(input: &CheckInput) -> Result<Outcome, InputError> {
    let root = parse_hash("Merkle root", &input.root)?;
    let types = parse_leaf_encoding(&input.leaf_encoding)?;
    let encoding = LeafEncoding::parse(&types).map_err(|e| bad("Leaf encoding", e.to_string()))?;
    let value_text = input.value.trim();
    if value_text.is_empty() {
        return Err(bad("Leaf value", "this field is empty"));
    }
    let value: Value = serde_json::from_str(value_text)
        .map_err(|e| bad("Leaf value", format!("not valid JSON: {e}")))?;
    let leaf = encoding
        .leaf_hash(&value)
        .map_err(|e| bad("Leaf value", e.to_string()))?;
    let proof = parse_proof(&input.proof)?;
    let computed = process_proof(leaf, &proof);
    Ok(Outcome {
        verified: computed == root,
        leaf_hash: leaf.to_string(),
        computed_root: computed.to_string(),
        expected_root: root.to_string(),
        proof_len: proof.len(),
    })
}

/// A valid example: the second leaf of a small tree of Eden score leaves (C5).
pub fn example() -> CheckInput {
    let values: Vec<Value> = [
        (
            "0x1111111111111111111111111111111111111111",
            "730000000000000000",
        ),
        (
            "0x2222222222222222222222222222222222222222",
            "524000000000000000",
        ),
        (
            "0x3333333333333333333333333333333333333333",
            "912500000000000000",
        ),
        (
            "0x4444444444444444444444444444444444444444",
            "60000000000000000",
        ),
        (
            "0x5555555555555555555555555555555555555555",
            "400000000000000000",
        ),
    ]
    .iter()
    .map(|(a, s)| serde_json::json!([a, s]))
    .collect();
    let index = 1;
    let chosen = values[index].clone();
    let Ok(tree) = StandardMerkleTree::of(values, &["address", "uint256"], Options::default())
    else {
        return CheckInput::default();
    };
    let proof = tree.get_proof(index).unwrap_or_default();
    CheckInput {
        root: tree.root().to_string(),
        leaf_encoding: "address, uint256".into(),
        value: chosen.to_string(),
        proof: proof
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_verifies_and_a_changed_score_does_not() {
        let ex = example();
        assert!(!ex.root.is_empty());
        let ok = check(&ex).unwrap();
        assert!(ok.verified, "{ok:?}");
        assert_eq!(ok.proof_len, parse_proof(&ex.proof).unwrap().len());
        assert!(ok.proof_len >= 2);
        let mut tampered = ex.clone();
        tampered.value = tampered.value.replace("524", "525");
        let no = check(&tampered).unwrap();
        assert!(!no.verified);
        assert_ne!(no.computed_root, no.expected_root);
    }

    #[test]
    fn proof_formats() {
        let ex = example();
        let lines = parse_proof(&ex.proof).unwrap();
        let json =
            serde_json::to_string(&lines.iter().map(ToString::to_string).collect::<Vec<_>>())
                .unwrap();
        assert_eq!(parse_proof(&json).unwrap(), lines);
        assert_eq!(parse_proof(&ex.proof.replace('\n', ", ")).unwrap(), lines);
        assert!(parse_proof("").unwrap().is_empty());
    }

    #[test]
    fn encodings() {
        assert_eq!(
            parse_leaf_encoding("address, uint256").unwrap(),
            ["address", "uint256"]
        );
        assert_eq!(
            parse_leaf_encoding("(uint256,bool)[], string").unwrap(),
            ["(uint256,bool)[]", "string"]
        );
        assert_eq!(
            parse_leaf_encoding(r#"["address","uint256"]"#).unwrap(),
            ["address", "uint256"]
        );
        assert!(parse_leaf_encoding("address,,uint256").is_err());
        assert!(parse_leaf_encoding("(uint256").is_err());
    }

    #[test]
    fn malformed_fields_are_named() {
        let ex = example();
        type Mutation = fn(&mut CheckInput);
        let cases: [(&str, Mutation); 7] = [
            ("Merkle root", |i| i.root = "0x1234".into()),
            ("Merkle root", |i| i.root = "1234".into()),
            ("Leaf encoding", |i| {
                i.leaf_encoding = "adress, uint256".into()
            }),
            ("Leaf value", |i| i.value = "[\"0xnothex\", \"1\"]".into()),
            ("Leaf value", |i| i.value = "[oops".into()),
            ("Leaf value", |i| {
                i.value = "[\"0x2222222222222222222222222222222222222222\", \"-1\"]".into()
            }),
            ("Proof", |i| i.proof = "0xzz".into()),
        ];
        for (field, mutate) in cases {
            let mut input = ex.clone();
            mutate(&mut input);
            let e = check(&input).unwrap_err();
            assert_eq!(e.field, field, "{e:?}");
            assert!(!e.message.is_empty());
        }
    }
}
