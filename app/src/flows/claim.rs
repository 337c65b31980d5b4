//! Claiming holder payouts (C18): the connected account's payouts, each leaf's proof walked to its round's
//! on-chain root; the `claim` and `rollover` transactions; and `claimTo`, the leaf paid to another address
//! under an EIP-712 signature whose digest is checked against the distributor's own `claimToDigest` before
//! the wallet is asked, and whose signer is checked to be the account before anything is sent.

use crate::chain::abi::IHolderDistributor;
use crate::chain::payouts::{self, Round, SnapshotView};
use crate::chain::rpc::{RpcError, TxRequest};
use crate::chain::world::{World, WorldError};
use crate::error::AppError;
use crate::fmt;
use alloy_primitives::{Address, B256, U256};
use alloy_sol_types::Eip712Domain;
use alloy_sol_types::SolCall;
use eden_core::eip712::SignatureError;
use eden_core::holders::{
    claim_to_domain, claim_to_signing_hash, claim_to_typed_data, recover_claim_to_signer, ClaimTo,
};
use eden_core::merkle::process_proof;

/// Seconds a `claimTo` signature stays valid.
pub const CLAIM_TO_VALIDITY_SECS: u64 = 3_600;

/// One of the account's payouts: its round, its leaf and proof (walked to the round's on-chain root), and
/// the round's window and state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub round: Round,
    pub amount: U256,
    pub proof: Vec<B256>,
    pub leaf: B256,
    pub proof_ok: bool,
    pub opens_at: u64,
    pub closes_at: u64,
    pub claimed: bool,
    pub settled: bool,
    pub snapshot: SnapshotView,
}

/// The account's payouts, and the rounds whose tree could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Payouts {
    pub rows: Vec<Row>,
    pub problems: Vec<WorldError>,
}

/// The account's payouts ([`payouts::payouts_of`]), each proof walked to its round's on-chain root.
pub async fn load_rows(w: World, account: Address) -> Result<Payouts, AppError> {
    let read = payouts::payouts_of(&w, account).await?;
    Ok(Payouts {
        rows: read
            .found
            .into_iter()
            .map(|(r, p, claimed, snapshot)| Row {
                snapshot,
                proof_ok: process_proof(p.leaf, &p.proof) == r.root,
                amount: p.amount,
                proof: p.proof,
                leaf: p.leaf,
                opens_at: r.opens_at,
                closes_at: r.closes_at,
                claimed,
                settled: r.settled,
                round: r,
            })
            .collect(),
        problems: read.problems,
    })
}

/// `claim` of `r`'s leaf by `account`, with its label.
pub fn claim_request(r: &Row, account: Address) -> (String, IHolderDistributor::claimCall) {
    let call = IHolderDistributor::claimCall {
        token: r.round.token,
        asset: r.round.asset,
        epoch: r.round.epoch,
        account,
        amount: r.amount,
        proof: r.proof.clone(),
    };
    let label = format!(
        "Claim {} {} (round {})",
        fmt::units(r.amount, r.round.asset_decimals, 6),
        r.round.asset_symbol,
        r.round.epoch
    );
    (label, call)
}

/// `rollover` of `r`'s round (anyone, once its claim window is over): the unclaimed rest returns to the pot,
/// with its label.
pub fn rollover_request(r: &Row) -> (String, IHolderDistributor::rolloverCall) {
    let label = format!(
        "Return round {} of {} holders' unclaimed rest to the pot",
        r.round.epoch, r.round.symbol
    );
    let call = IHolderDistributor::rolloverCall {
        token: r.round.token,
        asset: r.round.asset,
        epoch: r.round.epoch,
    };
    (label, call)
}

/// The recipient typed in, checked in words.
pub fn parse_recipient(text: &str, account: Address) -> Result<Address, String> {
    let a: Address = text
        .trim()
        .parse()
        .map_err(|_| "Enter the recipient's address: 0x followed by 40 hex digits.".to_string())?;
    if a.is_zero() {
        return Err("The zero address cannot receive a payout.".into());
    }
    if a == account {
        return Err("That is your own address: use Claim.".into());
    }
    Ok(a)
}

/// A `claimTo` ready for the wallet: the message, its domain, its digest (the distributor's own) and the
/// typed data the wallet shows.
#[derive(Debug, Clone)]
pub struct ClaimToSigning {
    /// What is signed.
    pub msg: ClaimTo,
    /// The distributor's EIP-712 domain.
    pub domain: Eip712Domain,
    /// The digest, equal to the distributor's `claimToDigest`.
    pub digest: B256,
    /// `eth_signTypedData_v4`'s argument.
    pub typed: serde_json::Value,
}

/// Why a `claimTo` was not sent; [`super::words::claim_to_refusal`] says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimToRefusal {
    /// The distributor's digest could not be read.
    DigestUnread(RpcError),
    /// The distributor computes another digest: nothing was signed.
    DigestDiffers,
    /// The wallet signed as another account.
    SignedAs {
        /// Who signed.
        signer: Address,
        /// The account whose leaf it is.
        account: Address,
    },
    /// The signature does not recover.
    Signature(SignatureError),
}

/// The `claimTo` of `r`'s leaf by `account` to `recipient`, valid for [`CLAIM_TO_VALIDITY_SECS`] from chain
/// time `now`, its digest checked against the distributor's.
///
/// # Errors
/// The distributor's digest unread or different.
pub async fn claim_to_signing(
    w: &World,
    r: &Row,
    account: Address,
    recipient: Address,
    now: u64,
) -> Result<ClaimToSigning, ClaimToRefusal> {
    let dist = w.contracts.holder_distributor;
    let deadline = U256::from(now + CLAIM_TO_VALIDITY_SECS);
    let msg = ClaimTo {
        token: r.round.token,
        asset: r.round.asset,
        epoch: r.round.epoch,
        account,
        amount: r.amount,
        recipient,
        deadline,
    };
    let domain = claim_to_domain(w.chain_id, dist);
    let digest = claim_to_signing_hash(&domain, &msg);
    let chain_digest = w
        .rpc()
        .call(
            dist,
            &IHolderDistributor::claimToDigestCall {
                token: msg.token,
                asset: msg.asset,
                epoch: msg.epoch,
                account,
                amount: msg.amount,
                recipient,
                deadline,
            },
        )
        .await
        .map_err(ClaimToRefusal::DigestUnread)?;
    if chain_digest != digest {
        return Err(ClaimToRefusal::DigestDiffers);
    }
    let typed = claim_to_typed_data(&domain, &msg);
    Ok(ClaimToSigning {
        msg,
        domain,
        digest,
        typed,
    })
}

/// The `claimTo` transaction for `signing` signed as `sig`, with its label.
///
/// # Errors
/// The signature does not recover to the account whose leaf it is.
pub fn claim_to_request(
    w: &World,
    r: &Row,
    signing: &ClaimToSigning,
    sig: &[u8],
) -> Result<(String, TxRequest), ClaimToRefusal> {
    let msg = &signing.msg;
    match recover_claim_to_signer(&signing.domain, msg, sig) {
        Ok(s) if s == msg.account => {}
        Ok(signer) => {
            return Err(ClaimToRefusal::SignedAs {
                signer,
                account: msg.account,
            })
        }
        Err(e) => return Err(ClaimToRefusal::Signature(e)),
    }
    let data = IHolderDistributor::claimToCall {
        token: msg.token,
        asset: msg.asset,
        epoch: msg.epoch,
        account: msg.account,
        amount: msg.amount,
        proof: r.proof.clone(),
        recipient: msg.recipient,
        deadline: msg.deadline,
        signature: sig.to_vec().into(),
    }
    .abi_encode();
    let label = format!(
        "Claim {} {} to {} (round {})",
        fmt::units(r.amount, r.round.asset_decimals, 6),
        r.round.asset_symbol,
        fmt::short_addr(&msg.recipient.to_string()),
        r.round.epoch
    );
    Ok((label, TxRequest::call(w.contracts.holder_distributor, data)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipients_are_checked_in_words() {
        let me = Address::repeat_byte(1);
        let other = Address::repeat_byte(2);
        assert_eq!(parse_recipient(&format!(" {other} "), me), Ok(other));
        assert!(parse_recipient("0x12", me)
            .unwrap_err()
            .contains("40 hex digits"));
        assert!(parse_recipient(&Address::ZERO.to_string(), me)
            .unwrap_err()
            .contains("zero address"));
        assert!(parse_recipient(&me.to_string(), me)
            .unwrap_err()
            .contains("use Claim"));
    }
}
