//! Parsing and checking of a pasted Merkle proof (pure logic, unit-tested natively).

/// What the person pasted.
#[derive(Debug, Clone, Default)]
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

/// The verdict, with the hashes shown to the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub verified: bool,
    pub leaf_hash: String,
    pub computed_root: String,
    pub expected_root: String,
    pub proof_len: usize,
}

pub fn check(_input: &CheckInput) -> Result<Outcome, InputError> {
    Err(InputError { field: "Merkle root", message: "not wired yet".into() })
}

pub fn example() -> CheckInput {
    CheckInput::default()
}
