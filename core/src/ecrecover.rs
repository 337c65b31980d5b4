//! `ecrecover` with one scalar multiplication pair (C6, C21).
//!
//! Recovery of a secp256k1 signature `(r, s, v)` over a digest `z` is the point
//! `Q = r⁻¹·(s·R − z·G)`, where `R` is the curve point with x-coordinate `r` and the y parity
//! `v − 27`. The signer is the address of `Q`: the last 20 bytes of `keccak256(Q.x ‖ Q.y)`.
//!
//! k256's `VerifyingKey::recover_from_prehash` (which alloy's `Signature::recover_address_from_prehash`
//! calls) computes `Q` the same way and then *verifies the signature again* under `Q`: a second
//! double-scalar multiplication and an inversion, about half the time of a recovery. The second check can
//! never fail for a `Q` computed this way (for any `Q ≠ ∞`, `u₁·G + u₂·Q` with `u₁ = z·s⁻¹`, `u₂ = r·s⁻¹`
//! equals `s⁻¹·(z·G + r·Q) = s⁻¹·(z·G + s·R − z·G) = R`, whose x is `r`), so this module skips it. It uses
//! k256's own field, scalar and group arithmetic (constant-time; `G`'s multiple through k256's
//! precomputed tables), only composed without the redundant check. It is what the operator's and the
//! browser's attestation checks run 300,000 and 3,000 times (the `bench_build` and `bench/attest.mjs`
//! benchmarks); `tests` cross-check it against alloy's recovery on random keys and on arbitrary bytes.
//!
//! The C6 rules (length, `v`, low `s`, scalar ranges) are [`crate::eip712::parse_signature`]'s; this
//! module takes a parsed signature.

use alloy_primitives::{Address, Signature, B256};
use k256::elliptic_curve::ops::{MulByGenerator, Reduce};
use k256::elliptic_curve::point::DecompressPoint;
use k256::elliptic_curve::sec1::ToEncodedPoint;
use k256::elliptic_curve::subtle::Choice;
use k256::elliptic_curve::{Group, PrimeField};
use k256::{AffinePoint, FieldBytes, ProjectivePoint, Scalar, U256 as K256Uint};

/// Why a signature was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// Not 65 bytes.
    #[error("signature: expected 65 bytes (r ‖ s ‖ v), got {0}")]
    WrongLength(usize),
    /// `v` is not 27 or 28.
    #[error("signature: v = {0} is not 27 or 28{hint}", hint = if *.0 < 2 { " (a 0/1 recovery id: add 27; the registry rejects it as given)" } else { "" })]
    InvalidV(u8),
    /// `s > secp256k1n / 2` (a malleable high-s signature).
    #[error("signature: s is above secp256k1n/2 (high-s, malleable signature)")]
    HighS,
    /// `r` or `s` is zero, or `r` is not below the curve order.
    #[error("signature: r or s is zero, or r is not below the curve order")]
    InvalidScalar,
    /// No public key recovers from this signature and digest.
    #[error("signature: no signer can be recovered from this signature")]
    Unrecoverable,
}

/// The address whose key signed `digest` with `sig`, or [`SignatureError::Unrecoverable`] when no point
/// has x-coordinate `r` or the recovered point is the identity. Same answer as
/// `sig.recover_address_from_prehash(digest)` for every signature with `r, s ∈ [1, n)` and `v ∈ {27, 28}`
/// (what `parse_signature` lets through), at about half the cost.
///
/// # Errors
/// [`SignatureError::Unrecoverable`], or [`SignatureError::InvalidScalar`] for a zero or out-of-range
/// scalar (unreachable after `parse_signature`).
pub fn recover_address(sig: &Signature, digest: &B256) -> Result<Address, SignatureError> {
    let r_bytes: FieldBytes = sig.r().to_be_bytes::<32>().into();
    let s_bytes: FieldBytes = sig.s().to_be_bytes::<32>().into();
    let r =
        Option::<Scalar>::from(Scalar::from_repr(r_bytes)).ok_or(SignatureError::InvalidScalar)?;
    let s =
        Option::<Scalar>::from(Scalar::from_repr(s_bytes)).ok_or(SignatureError::InvalidScalar)?;
    if bool::from(r.is_zero()) || bool::from(s.is_zero()) {
        return Err(SignatureError::InvalidScalar);
    }
    // R: x = r (r < n < p, so r is a field element; the x ≥ n case needs v ∈ {29, 30}, never accepted).
    let big_r = Option::<AffinePoint>::from(AffinePoint::decompress(
        &r_bytes,
        Choice::from(u8::from(sig.v())),
    ))
    .ok_or(SignatureError::Unrecoverable)?;
    let z = <Scalar as Reduce<K256Uint>>::reduce_bytes(&FieldBytes::from(digest.0));
    let r_inv = Option::<Scalar>::from(r.invert()).ok_or(SignatureError::InvalidScalar)?;
    let u1 = -(r_inv * z);
    let u2 = r_inv * s;
    let q = ProjectivePoint::mul_by_generator(&u1) + ProjectivePoint::from(big_r) * u2;
    if bool::from(q.is_identity()) {
        return Err(SignatureError::Unrecoverable);
    }
    let encoded = q.to_affine().to_encoded_point(false);
    Ok(Address::from_raw_public_key(&encoded.as_bytes()[1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eip712::parse_signature;
    use alloy_primitives::{keccak256, U256};
    use k256::ecdsa::SigningKey;
    use proptest::prelude::*;

    fn sign(key: &SigningKey, digest: &B256) -> Signature {
        let (sig, id) = key.sign_prehash_recoverable(digest.as_slice()).unwrap();
        Signature::from_signature_and_parity(sig, id.is_y_odd())
    }

    #[test]
    fn recovers_the_anvil_key_0_account() {
        let key = SigningKey::from_slice(&alloy_primitives::hex!(
            "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
        ))
        .unwrap();
        let digest = keccak256(b"eden");
        let sig = sign(&key, &digest);
        assert_eq!(
            recover_address(&sig, &digest).unwrap(),
            alloy_primitives::address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        );
    }

    #[test]
    fn an_r_off_the_curve_is_unrecoverable() {
        // x = 5: 125 + 7 = 132 is not a square mod p.
        let sig = Signature::new(U256::from(5), U256::from(1), false);
        let digest = keccak256(b"x");
        assert_eq!(
            recover_address(&sig, &digest),
            Err(SignatureError::Unrecoverable)
        );
        assert!(sig.recover_address_from_prehash(&digest).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Real signatures: the signer's address, and alloy (k256 with its second check) agrees.
        #[test]
        fn equals_alloy_on_signatures(secret in any::<[u8; 32]>(), msg in any::<[u8; 32]>()) {
            let Ok(key) = SigningKey::from_slice(&secret) else { return Ok(()) };
            let digest = B256::from(msg);
            let sig = sign(&key, &digest);
            let expected = Address::from_public_key(key.verifying_key());
            prop_assert_eq!(recover_address(&sig, &digest), Ok(expected));
            prop_assert_eq!(sig.recover_address_from_prehash(&digest).ok(), Some(expected));
        }

        /// Arbitrary bytes that pass the C6 rules: same answer as alloy, error for error.
        #[test]
        fn equals_alloy_on_arbitrary_bytes(bytes in any::<[u8; 64]>(), odd in any::<bool>(), msg in any::<[u8; 32]>()) {
            let mut raw = bytes.to_vec();
            raw.push(if odd { 28 } else { 27 });
            let Ok(sig) = parse_signature(&raw) else { return Ok(()) };
            let digest = B256::from(msg);
            prop_assert_eq!(
                recover_address(&sig, &digest).ok(),
                sig.recover_address_from_prehash(&digest).ok()
            );
        }
    }
}
