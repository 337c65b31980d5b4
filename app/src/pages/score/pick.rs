//! Which project the Score page checks (D9): always the one the person picked or named, never another.
//!
//! The page's list offers the deployment's named projects; the search field takes a name, a launch's
//! symbol or an address. A query that names one project picks it; one that names several lists them to
//! choose from; one that names none, or a malformed address, picks nothing and says why, so the Verify
//! button has no project to check instead of silently checking the list's last choice.

use alloy_primitives::Address;

/// A project the page can name: its address, its (unverified) name and, for a launch, its symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub address: Address,
    pub name: String,
    pub symbol: Option<String>,
}

impl Candidate {
    /// "Name (SYM)" or "Name".
    pub fn label(&self) -> String {
        match &self.symbol {
            Some(s) if !s.is_empty() => format!("{} ({s})", self.name),
            _ => self.name.clone(),
        }
    }
}

/// What a query names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// One project: an address typed, or the only name or symbol that matches.
    Project(Address),
    /// Several projects match: the person chooses.
    Choices(Vec<Candidate>),
    /// No project's name or symbol matches.
    NoMatch(String),
    /// It starts like an address but is not one.
    NotAnAddress(String),
}

/// What `query` names among `candidates`: `None` for an empty query (the list's choice stands).
/// An address is taken as typed (any address may be checked); otherwise an exact symbol or name
/// (case-insensitive) wins over a partial one, and more than one match is a choice, never a guess.
pub fn resolve(query: &str, candidates: &[Candidate]) -> Option<Pick> {
    let q = query.trim();
    if q.is_empty() {
        return None;
    }
    if q.len() >= 2 && q[..2].eq_ignore_ascii_case("0x") {
        return Some(match q.parse::<Address>() {
            Ok(a) => Pick::Project(a),
            Err(_) => Pick::NotAnAddress(q.to_owned()),
        });
    }
    let lower = q.to_lowercase();
    let symbol_is = |c: &Candidate| c.symbol.as_ref().is_some_and(|s| s.to_lowercase() == lower);
    let exact: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| symbol_is(c) || c.name.to_lowercase() == lower)
        .collect();
    let found = if exact.is_empty() {
        candidates
            .iter()
            .filter(|c| {
                c.name.to_lowercase().contains(&lower)
                    || c.symbol
                        .as_ref()
                        .is_some_and(|s| s.to_lowercase().contains(&lower))
            })
            .collect()
    } else {
        exact
    };
    Some(match found.as_slice() {
        [] => Pick::NoMatch(q.to_owned()),
        [one] => Pick::Project(one.address),
        many => Pick::Choices(many.iter().map(|c| (*c).clone()).collect()),
    })
}

/// The candidates: the deployment's named projects and its launches, one per address (a launch's
/// symbol added to a named project's entry), sorted by name.
pub fn candidates(
    named: impl IntoIterator<Item = (Address, String)>,
    launches: impl IntoIterator<Item = (Address, String, String)>,
) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = named
        .into_iter()
        .map(|(address, name)| Candidate {
            address,
            name,
            symbol: None,
        })
        .collect();
    for (address, name, symbol) in launches {
        match out.iter_mut().find(|c| c.address == address) {
            Some(c) => c.symbol = Some(symbol),
            None => out.push(Candidate {
                address,
                name,
                symbol: Some(symbol),
            }),
        }
    }
    out.sort_by_key(|c| c.name.to_lowercase());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(n: u8) -> Address {
        Address::repeat_byte(n)
    }

    fn world() -> Vec<Candidate> {
        candidates(
            [
                (a(1), "Acorn Apps".to_owned()),
                (a(2), "Garden Guild".to_owned()),
                (a(3), "Seedling Labs".to_owned()),
                (a(4), "Seed Vault".to_owned()),
            ],
            [
                (a(2), "Garden".to_owned(), "GARD".to_owned()),
                (a(9), "Mead".to_owned(), "MEAD".to_owned()),
            ],
        )
    }

    #[test]
    fn a_symbol_names_its_project_never_the_lists_default() {
        // The review's case: GARD typed, Acorn Apps (the list's first) verified.
        assert_eq!(resolve("GARD", &world()), Some(Pick::Project(a(2))));
        assert_eq!(resolve("gard", &world()), Some(Pick::Project(a(2))));
        assert_eq!(resolve("mead", &world()), Some(Pick::Project(a(9))));
    }

    #[test]
    fn names_exact_then_partial_and_several_are_a_choice() {
        assert_eq!(resolve(" acorn apps ", &world()), Some(Pick::Project(a(1))));
        assert_eq!(resolve("acorn", &world()), Some(Pick::Project(a(1))));
        let Some(Pick::Choices(c)) = resolve("seed", &world()) else {
            panic!("two projects match 'seed'");
        };
        assert_eq!(
            c.iter().map(|c| c.address).collect::<Vec<_>>(),
            vec![a(4), a(3)]
        );
        assert_eq!(
            resolve("nothing like it", &world()),
            Some(Pick::NoMatch("nothing like it".into()))
        );
        assert_eq!(resolve("   ", &world()), None);
    }

    #[test]
    fn addresses_are_taken_as_typed_and_bad_ones_refused() {
        let typed = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
        assert_eq!(
            resolve(typed, &world()),
            Some(Pick::Project(typed.parse().unwrap()))
        );
        assert_eq!(
            resolve("0x7099", &world()),
            Some(Pick::NotAnAddress("0x7099".into()))
        );
    }

    #[test]
    fn a_launch_adds_its_symbol_to_the_named_project() {
        let w = world();
        let g = w.iter().find(|c| c.address == a(2)).unwrap();
        assert_eq!(g.label(), "Garden Guild (GARD)");
        assert_eq!(w.len(), 5);
    }
}
