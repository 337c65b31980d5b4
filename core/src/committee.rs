//! The signer committee's approvals of a root (C7a), checked the way `EpochRegistry.propose` checks them.
//!
//! A root is approved by a committee of n members and a threshold m: each member signs the same C6
//! digest ([`crate::eip712::epoch_root_signing_hash`]). [`check_approvals`] applies the registry's rule:
//!
//! 1. every approval names a member of the committee ([`ApprovalError::NotAMember`]);
//! 2. no member approves twice ([`ApprovalError::Repeated`]), in whatever order the approvals come;
//! 3. each signature recovers to its member under the C6 rules (65 bytes, low s, `v` 27/28), or it is
//!    listed in [`ApprovalCheck::unrecovered`]: on chain that reverts unless the member is a contract whose
//!    ERC-1271 `isValidSignature` accepts it, which only the chain can answer;
//! 4. there are at least m approvals ([`ApprovalError::TooFew`]).
//!
//! A deployment starts as the 1-of-1 committee of its one accountable signer (C7a).

use crate::eip712::{epoch_root_signing_hash, parse_signature, EpochRoot, SignatureError};
use alloy_primitives::Address;
use alloy_sol_types::Eip712Domain;

/// A signer committee (C7a): its id in the registry, its members in seat order and its threshold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committee {
    /// The registry's id for this committee (0 is the deployment's first).
    pub id: u32,
    /// Members, in seat order.
    pub members: Vec<Address>,
    /// How many members must approve a root.
    pub threshold: u8,
}

impl Committee {
    /// True when `who` sits on this committee.
    pub fn has(&self, who: Address) -> bool {
        self.members.contains(&who)
    }
}

/// One member's approval (C7a): the member and its signature over the C6 digest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approval {
    /// The member who approves.
    pub member: Address,
    /// 65 bytes `r ‖ s ‖ v` for an account with a key; whatever its ERC-1271 check accepts for a contract.
    pub signature: Vec<u8>,
}

/// An approval whose signature is not its member's key's (C7a step 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrecovered {
    /// The member the approval names.
    pub member: Address,
    /// Whom the signature recovers to, or why it recovers to nobody.
    pub recovered: Result<Address, SignatureError>,
}

/// What [`check_approvals`] found when the approvals keep the committee's rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalCheck {
    /// Members whose signature recovers to them, in the approvals' order.
    pub signed: Vec<Address>,
    /// Approvals whose signature does not recover to their member: valid only for a contract member, by ERC-1271.
    pub unrecovered: Vec<Unrecovered>,
}

impl ApprovalCheck {
    /// True when every approval is its member's own key's signature: nothing is left to ERC-1271.
    pub fn all_signed(&self) -> bool {
        self.unrecovered.is_empty()
    }
}

/// Why approvals break the committee's rule (C7a); the registry reverts with the same cause.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApprovalError {
    /// `NotAMember(member)`.
    #[error("{0} is not a member of committee #{1}")]
    NotAMember(Address, u32),
    /// `RepeatedMember(member)`.
    #[error("{0} approves twice")]
    Repeated(Address),
    /// `TooFewApprovals(approvals, threshold)`.
    #[error("{approvals} approval(s); committee #{committee} needs {threshold}")]
    TooFew {
        /// Approvals given.
        approvals: usize,
        /// Approvals needed.
        threshold: u8,
        /// The committee.
        committee: u32,
    },
}

/// Checks `approvals` of `msg` under `domain` against `committee` (C7a, steps 1–4 of the module doc).
///
/// # Errors
/// [`ApprovalError`] when a rule the registry enforces for every member is broken; an approval whose
/// signature does not recover to its member is not an error here (see [`ApprovalCheck::unrecovered`]).
pub fn check_approvals(
    domain: &Eip712Domain,
    msg: &EpochRoot,
    approvals: &[Approval],
    committee: &Committee,
) -> Result<ApprovalCheck, ApprovalError> {
    let digest = epoch_root_signing_hash(domain, msg);
    let mut seen: Vec<Address> = Vec::with_capacity(approvals.len());
    let mut out = ApprovalCheck {
        signed: Vec::new(),
        unrecovered: Vec::new(),
    };
    for a in approvals {
        if !committee.has(a.member) {
            return Err(ApprovalError::NotAMember(a.member, committee.id));
        }
        if seen.contains(&a.member) {
            return Err(ApprovalError::Repeated(a.member));
        }
        seen.push(a.member);
        let recovered = parse_signature(&a.signature)
            .and_then(|sig| crate::ecrecover::recover_address(&sig, &digest));
        match recovered {
            Ok(who) if who == a.member => out.signed.push(who),
            other => out.unrecovered.push(Unrecovered {
                member: a.member,
                recovered: other,
            }),
        }
    }
    if approvals.len() < usize::from(committee.threshold) {
        return Err(ApprovalError::TooFew {
            approvals: approvals.len(),
            threshold: committee.threshold,
            committee: committee.id,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eip712::eden_domain;
    use alloy_primitives::{address, B256};
    use k256::ecdsa::SigningKey;
    use proptest::prelude::*;

    const REGISTRY: Address = address!("5FbDB2315678afecb367f032d93F642f64180aa3");

    fn key(i: u8) -> SigningKey {
        let mut b = [0u8; 32];
        b[30] = 0x10;
        b[31] = i + 1;
        SigningKey::from_bytes((&b).into()).unwrap()
    }

    fn addr(k: &SigningKey) -> Address {
        Address::from_public_key(k.verifying_key())
    }

    fn msg() -> EpochRoot {
        EpochRoot {
            epoch: 9,
            root: B256::repeat_byte(0x33),
            inputsRoot: B256::repeat_byte(0x44),
            proposer: address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            expiry: 1_700_000_000,
        }
    }

    fn sign(k: &SigningKey, domain: &Eip712Domain, m: &EpochRoot) -> Vec<u8> {
        let digest = epoch_root_signing_hash(domain, m);
        let (sig, recid) = k.sign_prehash_recoverable(digest.as_slice()).unwrap();
        let mut out = sig.to_bytes().to_vec();
        out.push(27 + recid.to_byte());
        out
    }

    fn committee(n: u8, threshold: u8) -> Committee {
        Committee {
            id: 1,
            members: (0..n).map(|i| addr(&key(i))).collect(),
            threshold,
        }
    }

    fn approve(seats: &[u8], domain: &Eip712Domain) -> Vec<Approval> {
        seats
            .iter()
            .map(|&i| Approval {
                member: addr(&key(i)),
                signature: sign(&key(i), domain, &msg()),
            })
            .collect()
    }

    #[test]
    fn three_of_five_in_any_order() {
        let d = eden_domain(31_337, REGISTRY);
        let c = committee(5, 3);
        let r = check_approvals(&d, &msg(), &approve(&[4, 0, 2], &d), &c).unwrap();
        assert_eq!(r.signed.len(), 3);
        assert!(r.all_signed());
    }

    #[test]
    fn too_few_repeated_and_strangers_are_refused() {
        let d = eden_domain(31_337, REGISTRY);
        let c = committee(5, 3);
        assert_eq!(
            check_approvals(&d, &msg(), &approve(&[1, 3], &d), &c),
            Err(ApprovalError::TooFew {
                approvals: 2,
                threshold: 3,
                committee: 1
            })
        );
        assert_eq!(
            check_approvals(&d, &msg(), &approve(&[1, 3, 1], &d), &c),
            Err(ApprovalError::Repeated(addr(&key(1))))
        );
        assert_eq!(
            check_approvals(&d, &msg(), &approve(&[1, 3, 7], &d), &c),
            Err(ApprovalError::NotAMember(addr(&key(7)), 1))
        );
    }

    #[test]
    fn a_signature_for_another_registry_or_chain_is_not_the_members() {
        let d = eden_domain(31_337, REGISTRY);
        let c = committee(3, 2);
        for other in [
            eden_domain(31_337, Address::repeat_byte(0xBE)),
            eden_domain(1, REGISTRY),
        ] {
            let mut a = approve(&[0, 1], &d);
            a[1].signature = sign(&key(1), &other, &msg());
            let r = check_approvals(&d, &msg(), &a, &c).unwrap();
            assert_eq!(r.signed, vec![addr(&key(0))]);
            assert_eq!(r.unrecovered.len(), 1);
            assert!(matches!(r.unrecovered[0].recovered, Ok(w) if w != addr(&key(1))));
        }
        let mut a = approve(&[0, 1], &d);
        a[0].signature.truncate(64);
        let r = check_approvals(&d, &msg(), &a, &c).unwrap();
        assert_eq!(
            r.unrecovered[0].recovered,
            Err(SignatureError::WrongLength(64))
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any ordering of any m..=n distinct members is accepted; adding a repeat anywhere is refused.
        #[test]
        fn orderings(perm in Just((0u8..9).collect::<Vec<_>>()).prop_shuffle(), k in 5usize..=9, dup in 0usize..9) {
            let d = eden_domain(8453, REGISTRY);
            let c = committee(9, 5);
            let seats = &perm[..k];
            let r = check_approvals(&d, &msg(), &approve(seats, &d), &c).unwrap();
            prop_assert_eq!(r.signed.len(), k);
            let mut twice = seats.to_vec();
            let again = twice[dup % k];
            twice.insert(dup % (k + 1), again);
            prop_assert_eq!(
                check_approvals(&d, &msg(), &approve(&twice, &d), &c),
                Err(ApprovalError::Repeated(addr(&key(again))))
            );
        }
    }
}
