//! EIP-712 `EpochRoot` signing hash and signer recovery (C6).
//!
//! Domain `{name: "Eden", version: "1", chainId, verifyingContract: registry}` ([`eden_domain`]);
//! struct `EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)`;
//! the signer names the one account that may propose the root (decided after the contract review:
//! a signature copied from the mempool or a publication makes nobody else the proposer);
//! digest `keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message))`.
//!
//! Recovery ([`recover_epoch_root_signer`]) takes a 65-byte `r ‖ s ‖ v` signature and, like
//! OpenZeppelin `ECDSA.tryRecover`, rejects high-s signatures (`s > secp256k1n / 2`, the malleable
//! twin of every valid signature). `v` must be 27 or 28, or 0 or 1 (decided: both conventions are
//! accepted, anything else is rejected). Every rejection has its own [`SignatureError`].

use alloy_primitives::{Address, Signature, B256, U256};
use alloy_sol_types::{sol, Eip712Domain, SolStruct};
use ruint::uint;
use std::borrow::Cow;

sol! {
    /// The root a publisher signs for an epoch (C6).
    #[derive(Debug, PartialEq, Eq)]
    struct EpochRoot {
        uint64 epoch;
        bytes32 root;
        bytes32 inputsRoot;
        address proposer;
        uint64 expiry;
    }
}

/// The EIP-712 domain name (C6).
pub const DOMAIN_NAME: &str = "Eden";
/// The EIP-712 domain version (C6).
pub const DOMAIN_VERSION: &str = "1";
/// The EIP-712 type string of [`EpochRoot`].
pub const EPOCH_ROOT_TYPE: &str =
    "EpochRoot(uint64 epoch,bytes32 root,bytes32 inputsRoot,address proposer,uint64 expiry)";

/// Order of the secp256k1 group, `n`.
pub const SECP256K1_N: U256 =
    uint!(0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141_U256);
/// `n / 2`: the largest `s` accepted (EIP-2 low-s rule).
pub const SECP256K1_HALF_N: U256 =
    uint!(0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0_U256);

pub use crate::ecrecover::SignatureError;

/// The Eden domain `{name: "Eden", version: "1", chainId, verifyingContract}` (C6).
pub fn eden_domain(chain_id: u64, verifying_contract: Address) -> Eip712Domain {
    Eip712Domain::new(
        Some(Cow::Borrowed(DOMAIN_NAME)),
        Some(Cow::Borrowed(DOMAIN_VERSION)),
        Some(U256::from(chain_id)),
        Some(verifying_contract),
        None,
    )
}

/// The EIP-712 digest that is signed: `keccak256(0x1901 ‖ separator(domain) ‖ hashStruct(msg))`.
pub fn epoch_root_signing_hash(domain: &Eip712Domain, msg: &EpochRoot) -> B256 {
    msg.eip712_signing_hash(domain)
}

/// Parses a 65-byte `r ‖ s ‖ v` signature, enforcing the C6 rules as the registry does on-chain
/// (OpenZeppelin `ECDSA`): low s, `v` ∈ {27, 28}. A `v` of 0 or 1 is refused with its own message,
/// since the registry would revert on it: add 27 before submitting.
///
/// # Errors
/// [`SignatureError::WrongLength`], [`SignatureError::InvalidV`], [`SignatureError::HighS`],
/// [`SignatureError::InvalidScalar`].
pub fn parse_signature(signature: &[u8]) -> Result<Signature, SignatureError> {
    let bytes: &[u8; 65] = signature
        .try_into()
        .map_err(|_| SignatureError::WrongLength(signature.len()))?;
    let (rs, v) = bytes.split_at(64);
    let (r, s) = rs.split_at(32);
    let r = U256::from_be_slice(r);
    let s = U256::from_be_slice(s);
    let odd_y = match v.first().copied().unwrap_or(u8::MAX) {
        27 => false,
        28 => true,
        other => return Err(SignatureError::InvalidV(other)),
    };
    if s > SECP256K1_HALF_N {
        return Err(SignatureError::HighS);
    }
    if r.is_zero() || s.is_zero() || r >= SECP256K1_N {
        return Err(SignatureError::InvalidScalar);
    }
    Ok(Signature::new(r, s, odd_y))
}

/// Recovers the address that signed `msg` under `domain` (C6).
///
/// # Errors
/// Any [`SignatureError`]: bad length, bad `v`, high `s`, zero/out-of-range scalars, or no
/// recoverable key.
pub fn recover_epoch_root_signer(
    domain: &Eip712Domain,
    msg: &EpochRoot,
    signature: &[u8],
) -> Result<Address, SignatureError> {
    let sig = parse_signature(signature)?;
    let digest = epoch_root_signing_hash(domain, msg);
    crate::ecrecover::recover_address(&sig, &digest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, b256, hex, keccak256};
    use alloy_sol_types::SolValue;
    use k256::ecdsa::SigningKey;
    use proptest::prelude::*;

    const REGISTRY: Address = address!("5FbDB2315678afecb367f032d93F642f64180aa3");
    /// Hardhat/Anvil account #0.
    const KEY: [u8; 32] = hex!("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    const SIGNER: Address = address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266");

    fn msg() -> EpochRoot {
        EpochRoot {
            epoch: 7,
            root: B256::repeat_byte(0x11),
            inputsRoot: B256::repeat_byte(0x22),
            proposer: address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            expiry: 1_700_000_000,
        }
    }

    fn sign(digest: B256, key: &[u8; 32]) -> [u8; 65] {
        let sk = SigningKey::from_bytes(key.into()).unwrap();
        let (sig, recid) = sk.sign_prehash_recoverable(digest.as_slice()).unwrap();
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&sig.to_bytes());
        out[64] = 27 + recid.to_byte();
        out
    }

    // Independent vector (node: ethereum-cryptography keccak/secp256k1 + @metamask/abi-utils),
    // domain chainId 8453, verifyingContract REGISTRY, message `msg()`, key = Anvil #0.
    const TYPEHASH: B256 =
        b256!("f2af4e2c868feb04702db88ae5865fcc376efe846358fabda598a98cd0217d70");
    const SEPARATOR: B256 =
        b256!("5112484de3fbb20b8f5e80fcdafbc2b636da0fab7d2356039bf0a9d38c13c7ef");
    const STRUCT_HASH: B256 =
        b256!("d434899abe324efebd9865c89b4fde19b20c8dbecc62b236f0dcfc81c2d556af");
    const DIGEST: B256 = b256!("8c79812eb7fa954b51fc606b63ba051719ae7d2efed2d47b63421583eb5f6f5e");
    const SIG: [u8; 65] = hex!("1f364e5a8bec0d45b4cde30e1888098f166f648733f7f34533a2f69dbe20444d24d1c032af31abaa5f4f27b95e7574043ae8e01fc24bac61a92b0c32ff503ac61b");

    #[test]
    fn half_n_is_n_shifted() {
        assert_eq!(SECP256K1_HALF_N, SECP256K1_N >> 1);
        assert_eq!(
            SECP256K1_N,
            U256::from_str_radix(
                "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141",
                16
            )
            .unwrap()
        );
    }

    #[test]
    fn typehash_and_separator_by_hand() {
        assert_eq!(EpochRoot::eip712_encode_type(), EPOCH_ROOT_TYPE);
        assert_eq!(keccak256(EPOCH_ROOT_TYPE), TYPEHASH);
        assert_eq!(msg().eip712_type_hash(), TYPEHASH);
        let domain = eden_domain(8453, REGISTRY);
        let manual_sep = keccak256(
            (
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("Eden"),
                keccak256("1"),
                U256::from(8453u64),
                REGISTRY,
            )
                .abi_encode_params(),
        );
        assert_eq!(domain.separator(), manual_sep);
        assert_eq!(manual_sep, SEPARATOR);
        let m = msg();
        let manual_struct = keccak256(
            (
                TYPEHASH,
                U256::from(m.epoch),
                m.root,
                m.inputsRoot,
                m.proposer,
                U256::from(m.expiry),
            )
                .abi_encode_params(),
        );
        assert_eq!(m.eip712_hash_struct(), manual_struct);
        assert_eq!(manual_struct, STRUCT_HASH);
        let mut pre = vec![0x19, 0x01];
        pre.extend_from_slice(SEPARATOR.as_slice());
        pre.extend_from_slice(STRUCT_HASH.as_slice());
        assert_eq!(keccak256(&pre), DIGEST);
        assert_eq!(epoch_root_signing_hash(&domain, &m), DIGEST);
    }

    #[test]
    fn recovers_independent_vector_and_refuses_v_0_1_like_the_registry() {
        let domain = eden_domain(8453, REGISTRY);
        assert_eq!(recover_epoch_root_signer(&domain, &msg(), &SIG), Ok(SIGNER));
        let mut v01 = SIG;
        v01[64] -= 27;
        assert_eq!(
            recover_epoch_root_signer(&domain, &msg(), &v01),
            Err(SignatureError::InvalidV(v01[64]))
        );
        assert!(SignatureError::InvalidV(0).to_string().contains("add 27"));
        // k256 (RFC 6979) produces the same signature.
        assert_eq!(sign(DIGEST, &KEY), SIG);
    }

    #[test]
    fn other_message_or_domain_recovers_someone_else() {
        let domain = eden_domain(8453, REGISTRY);
        let other = EpochRoot { epoch: 8, ..msg() };
        assert_ne!(recover_epoch_root_signer(&domain, &other, &SIG), Ok(SIGNER));
        let other_chain = eden_domain(1, REGISTRY);
        assert_ne!(
            recover_epoch_root_signer(&other_chain, &msg(), &SIG),
            Ok(SIGNER)
        );
    }

    #[test]
    fn malleated_high_s_is_rejected() {
        let domain = eden_domain(8453, REGISTRY);
        // (r, n - s, flipped v) is the malleable twin: valid for ecrecover, rejected here.
        let s = U256::from_be_slice(&SIG[32..64]);
        let mut twin = SIG;
        twin[32..64].copy_from_slice(&(SECP256K1_N - s).to_be_bytes::<32>());
        twin[64] = if SIG[64] == 27 { 28 } else { 27 };
        assert_eq!(
            recover_epoch_root_signer(&domain, &msg(), &twin),
            Err(SignatureError::HighS)
        );
        // s = n/2 is accepted as a value (boundary); n/2 + 1 is not.
        let mut at = SIG;
        at[32..64].copy_from_slice(&SECP256K1_HALF_N.to_be_bytes::<32>());
        assert!(parse_signature(&at).is_ok());
        at[32..64].copy_from_slice(&(SECP256K1_HALF_N + U256::from(1u8)).to_be_bytes::<32>());
        assert_eq!(parse_signature(&at), Err(SignatureError::HighS));
    }

    #[test]
    fn bad_v_and_length_rejected() {
        let domain = eden_domain(8453, REGISTRY);
        for v in [0u8, 1, 2, 26, 29, 35, 36, 37, 255] {
            let mut s = SIG;
            s[64] = v;
            assert_eq!(
                recover_epoch_root_signer(&domain, &msg(), &s),
                Err(SignatureError::InvalidV(v))
            );
        }
        assert_eq!(
            recover_epoch_root_signer(&domain, &msg(), &SIG[..64]),
            Err(SignatureError::WrongLength(64))
        );
        assert_eq!(
            recover_epoch_root_signer(&domain, &msg(), &[]),
            Err(SignatureError::WrongLength(0))
        );
        let mut long = SIG.to_vec();
        long.push(0);
        assert_eq!(
            recover_epoch_root_signer(&domain, &msg(), &long),
            Err(SignatureError::WrongLength(66))
        );
    }

    #[test]
    fn zero_and_out_of_range_scalars_rejected() {
        let mut z = SIG;
        z[..32].fill(0);
        assert_eq!(parse_signature(&z), Err(SignatureError::InvalidScalar));
        let mut z = SIG;
        z[32..64].fill(0);
        assert_eq!(parse_signature(&z), Err(SignatureError::InvalidScalar));
        let mut big_r = SIG;
        big_r[..32].copy_from_slice(&SECP256K1_N.to_be_bytes::<32>());
        assert_eq!(parse_signature(&big_r), Err(SignatureError::InvalidScalar));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn round_trip_any_message(key in any::<[u8; 32]>(), epoch in any::<u64>(), expiry in any::<u64>(),
                                  root in any::<[u8; 32]>(), inputs in any::<[u8; 32]>(), chain in any::<u64>()) {
            let Ok(sk) = SigningKey::from_bytes((&key).into()) else { return Ok(()) };
            let signer = Address::from_private_key(&sk);
            let domain = eden_domain(chain, REGISTRY);
            let m = EpochRoot { epoch, root: root.into(), inputsRoot: inputs.into(), proposer: Address::repeat_byte(0x70), expiry };
            let sig = sign(epoch_root_signing_hash(&domain, &m), &key);
            prop_assert_eq!(recover_epoch_root_signer(&domain, &m, &sig), Ok(signer));
        }

        #[test]
        fn never_panics(sig in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = recover_epoch_root_signer(&eden_domain(1, REGISTRY), &msg(), &sig);
        }
    }
}
