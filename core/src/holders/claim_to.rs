//! `claimTo` (C18, decided): a holder lets someone else's address receive its payout leaf by
//! signing an EIP-712 `ClaimTo` for that exact leaf, recipient and deadline.
//!
//! Domain `{name: "Eden Holder Distributor", version: "1", chainId, verifyingContract:
//! distributor}`; struct `ClaimTo(address token,address asset,uint64 epoch,address account,
//! uint256 amount,address recipient,uint256 deadline)`. The signature binds the chain and the
//! distributor (domain), the round (token, asset, epoch), the leaf (account, amount), where the
//! money goes and until when, so it cannot be replayed for another leaf, recipient or deployment.
//! Recovery follows [`crate::eip712::parse_signature`] (low s, `v` ∈ {27, 28}).

use crate::eip712::{parse_signature, SignatureError};
use alloy_dyn_abi::TypedData;
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::{sol, Eip712Domain, SolStruct};
use std::borrow::Cow;

sol! {
    /// What a holder signs to have its leaf paid to `recipient` (C18).
    #[derive(Debug, PartialEq, Eq, serde::Serialize)]
    struct ClaimTo {
        address token;
        address asset;
        uint64 epoch;
        address account;
        uint256 amount;
        address recipient;
        uint256 deadline;
    }
}

/// The distributor's EIP-712 domain name.
pub const CLAIM_TO_DOMAIN_NAME: &str = "Eden Holder Distributor";

/// The domain of the distributor at `distributor` on `chain_id`.
pub fn claim_to_domain(chain_id: u64, distributor: Address) -> Eip712Domain {
    Eip712Domain::new(
        Some(Cow::Borrowed(CLAIM_TO_DOMAIN_NAME)),
        Some(Cow::Borrowed("1")),
        Some(U256::from(chain_id)),
        Some(distributor),
        None,
    )
}

/// The digest the account signs (`HolderDistributor.claimToDigest`).
pub fn claim_to_signing_hash(domain: &Eip712Domain, msg: &ClaimTo) -> B256 {
    msg.eip712_signing_hash(domain)
}

/// The typed data a wallet signs with `eth_signTypedData_v4` (alloy's serialization, the JSON
/// shape wallets accept: `types` with `EIP712Domain`, `primaryType`, `domain`, `message`).
pub fn claim_to_typed_data(domain: &Eip712Domain, msg: &ClaimTo) -> serde_json::Value {
    let typed = TypedData::from_struct(msg, Some(domain.clone()));
    serde_json::to_value(typed).unwrap_or(serde_json::Value::Null)
}

/// The address that signed `msg` under `domain`.
///
/// # Errors
/// Any [`SignatureError`] of a malformed or unrecoverable signature.
pub fn recover_claim_to_signer(
    domain: &Eip712Domain,
    msg: &ClaimTo,
    signature: &[u8],
) -> Result<Address, SignatureError> {
    let sig = parse_signature(signature)?;
    crate::ecrecover::recover_address(&sig, &claim_to_signing_hash(domain, msg))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, hex, keccak256};
    use k256::ecdsa::SigningKey;

    const KEY: [u8; 32] = hex!("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    const ACCOUNT: Address = address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266");

    fn msg() -> ClaimTo {
        ClaimTo {
            token: Address::repeat_byte(1),
            asset: Address::ZERO,
            epoch: 3,
            account: ACCOUNT,
            amount: U256::from(12_345u64),
            recipient: Address::repeat_byte(9),
            deadline: U256::from(1_800_000_000u64),
        }
    }

    fn sign(digest: B256) -> [u8; 65] {
        let sk = SigningKey::from_bytes((&KEY).into()).unwrap();
        let (sig, recid) = sk.sign_prehash_recoverable(digest.as_slice()).unwrap();
        let mut out = [0u8; 65];
        out[..64].copy_from_slice(&sig.to_bytes());
        out[64] = 27 + recid.to_byte();
        out
    }

    #[test]
    fn the_type_string_is_the_contracts() {
        assert_eq!(
            msg().eip712_type_hash(),
            keccak256("ClaimTo(address token,address asset,uint64 epoch,address account,uint256 amount,address recipient,uint256 deadline)")
        );
    }

    #[test]
    fn a_signature_binds_recipient_deployment_and_leaf() {
        let d = claim_to_domain(31_337, Address::repeat_byte(7));
        let sig = sign(claim_to_signing_hash(&d, &msg()));
        assert_eq!(recover_claim_to_signer(&d, &msg(), &sig), Ok(ACCOUNT));
        let other_recipient = ClaimTo {
            recipient: Address::repeat_byte(8),
            ..msg()
        };
        let other_amount = ClaimTo {
            amount: U256::from(12_346u64),
            ..msg()
        };
        for (dom, m) in [
            (claim_to_domain(1, Address::repeat_byte(7)), msg()),
            (claim_to_domain(31_337, Address::repeat_byte(6)), msg()),
            (d.clone(), other_recipient),
            (d.clone(), other_amount),
        ] {
            assert_ne!(recover_claim_to_signer(&dom, &m, &sig), Ok(ACCOUNT));
        }
    }

    #[test]
    fn the_typed_data_a_wallet_signs_hashes_to_the_same_digest() {
        let d = claim_to_domain(31_337, Address::repeat_byte(7));
        let json = claim_to_typed_data(&d, &msg());
        assert_eq!(json["primaryType"], "ClaimTo");
        assert_eq!(json["domain"]["name"], CLAIM_TO_DOMAIN_NAME);
        assert!(json["types"]["EIP712Domain"].is_array());
        // What a wallet does with it: parse and hash.
        let parsed: TypedData = serde_json::from_value(json).unwrap();
        assert_eq!(
            parsed.eip712_signing_hash().unwrap(),
            claim_to_signing_hash(&d, &msg())
        );
    }
}
