//! EIP-1559 (type 2) transactions for the burner wallet: alloy-consensus's `TxEip1559` (RLP and the
//! EIP-2718 envelope) and secp256k1 signing (k256), in the browser. `0x02 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value,
//! data, accessList, yParity, r, s])`, signed over `keccak256(0x02 ‖ rlp([... accessList]))`.

use crate::split_point::on_demand;
use alloy_consensus::{SignableTransaction, TxEip1559};
use alloy_eips::eip2718::Encodable2718;
use alloy_primitives::{Address, Bytes, Signature, TxKind, B256, U256};
use k256::ecdsa::SigningKey;

/// An unsigned EIP-1559 transaction (empty access list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Eip1559 {
    pub chain_id: u64,
    pub nonce: u64,
    pub max_priority_fee_per_gas: U256,
    pub max_fee_per_gas: U256,
    pub gas_limit: u64,
    pub to: Address,
    pub value: U256,
    pub data: Bytes,
}

/// Why signing failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    #[error("private key: {0}")]
    Key(String),
    #[error("signing failed: {0}")]
    Sign(String),
    /// The signer's module could not be downloaded ([`sign_raw`], [`sign_typed`]).
    #[error(
        "the burner's signer could not be downloaded ({0}). Check the connection and try again."
    )]
    NotLoaded(String),
}

impl From<leptos::wasm_split::SplitLoaderError> for SignError {
    fn from(e: leptos::wasm_split::SplitLoaderError) -> Self {
        Self::NotLoaded(e.to_string())
    }
}

on_demand! {
    /// [`Eip1559::sign`] in a module of its own, fetched the first time the burner signs (issue 39): secp256k1
    /// signing, RFC 6979 and the EIP-2718 encoding are in no page's first download.
    ///
    /// # Errors
    /// [`SignError`] for an invalid key, or when the module cannot be downloaded.
    burner: pub fn sign_raw(tx: Eip1559, key: B256) -> Result<Vec<u8>, SignError> {
        tx.sign(&key)
    }
}

on_demand! {
    /// [`sign_digest`] in the same module as [`sign_raw`].
    ///
    /// # Errors
    /// [`SignError`] for an invalid key, or when the module cannot be downloaded.
    burner: pub fn sign_typed(key: B256, digest: B256) -> Result<[u8; 65], SignError> {
        sign_digest(&key, digest)
    }
}

impl Eip1559 {
    /// The transaction as alloy-consensus builds it (fees above `u128` saturate: no chain charges them).
    fn consensus(&self) -> TxEip1559 {
        TxEip1559 {
            chain_id: self.chain_id,
            nonce: self.nonce,
            gas_limit: self.gas_limit,
            max_fee_per_gas: self.max_fee_per_gas.saturating_to(),
            max_priority_fee_per_gas: self.max_priority_fee_per_gas.saturating_to(),
            to: TxKind::Call(self.to),
            value: self.value,
            access_list: Default::default(),
            input: self.data.clone(),
        }
    }

    /// The hash that is signed (`keccak256(0x02 ‖ rlp([chainId, nonce, …, accessList]))`).
    #[cfg(test)]
    pub fn signing_hash(&self) -> B256 {
        self.consensus().signature_hash()
    }

    /// Signs with `key` (32 bytes) and returns the raw transaction for `eth_sendRawTransaction`
    /// (the EIP-2718 envelope `0x02 ‖ rlp([…, yParity, r, s])`).
    ///
    /// # Errors
    /// [`SignError`] for an invalid key.
    pub fn sign(&self, key: &B256) -> Result<Vec<u8>, SignError> {
        let sk =
            SigningKey::from_slice(key.as_slice()).map_err(|e| SignError::Key(e.to_string()))?;
        let tx = self.consensus();
        let hash = tx.signature_hash();
        let (sig, recid) = sk
            .sign_prehash_recoverable(hash.as_slice())
            .map_err(|e| SignError::Sign(e.to_string()))?;
        let sig = Signature::from_signature_and_parity(sig, recid.is_y_odd());
        Ok(tx.into_signed(sig).encoded_2718())
    }
}

/// Signs a 32-byte digest (an EIP-712 signing hash) with `key`: `r ‖ s ‖ v`, `v` ∈ {27, 28},
/// low s (k256 normalizes), as OpenZeppelin's `ECDSA` accepts it.
///
/// # Errors
/// [`SignError`] for an invalid key.
pub fn sign_digest(key: &B256, digest: B256) -> Result<[u8; 65], SignError> {
    let sk = SigningKey::from_slice(key.as_slice()).map_err(|e| SignError::Key(e.to_string()))?;
    let (sig, recid) = sk
        .sign_prehash_recoverable(digest.as_slice())
        .map_err(|e| SignError::Sign(e.to_string()))?;
    let mut out = [0u8; 65];
    out[..64].copy_from_slice(&sig.to_bytes());
    out[64] = 27 + recid.to_byte();
    Ok(out)
}

/// The address of a private key (the tests check the burner's published accounts with it).
///
/// # Errors
/// [`SignError::Key`] for an invalid key.
#[cfg(test)]
pub fn address_of(key: &B256) -> Result<Address, SignError> {
    let sk = SigningKey::from_slice(key.as_slice()).map_err(|e| SignError::Key(e.to_string()))?;
    Ok(Address::from_public_key(sk.verifying_key()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{address, b256, hex, keccak256};

    const KEY: B256 = b256!("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");

    fn rlp_bytes(out: &mut Vec<u8>, b: &[u8]) {
        if b.len() == 1 && b[0] < 0x80 {
            out.push(b[0]);
        } else {
            rlp_len(out, b.len(), 0x80);
            out.extend_from_slice(b);
        }
    }

    fn rlp_len(out: &mut Vec<u8>, len: usize, offset: u8) {
        if len < 56 {
            out.push(offset + len as u8);
        } else {
            let be = (len as u64).to_be_bytes();
            let skip = be.iter().take_while(|&&x| x == 0).count();
            out.push(offset + 55 + (8 - skip) as u8);
            out.extend_from_slice(&be[skip..]);
        }
    }

    fn rlp_uint(out: &mut Vec<u8>, x: U256) {
        let be = x.to_be_bytes::<32>();
        let skip = be.iter().take_while(|&&b| b == 0).count();
        rlp_bytes(out, &be[skip..]);
    }

    fn rlp_list(payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(payload.len() + 9);
        rlp_len(&mut out, payload.len(), 0xc0);
        out.extend_from_slice(payload);
        out
    }

    fn fields(t: &Eip1559) -> Vec<u8> {
        let mut p = Vec::with_capacity(128 + t.data.len());
        rlp_uint(&mut p, U256::from(t.chain_id));
        rlp_uint(&mut p, U256::from(t.nonce));
        rlp_uint(&mut p, t.max_priority_fee_per_gas);
        rlp_uint(&mut p, t.max_fee_per_gas);
        rlp_uint(&mut p, U256::from(t.gas_limit));
        rlp_bytes(&mut p, t.to.as_slice());
        rlp_uint(&mut p, t.value);
        rlp_bytes(&mut p, &t.data);
        p.push(0xc0); // empty access list
        p
    }

    /// The encoder this module had before alloy-consensus: the byte-for-byte reference.
    fn legacy_sign(t: &Eip1559, key: &B256) -> Vec<u8> {
        let mut buf = vec![0x02];
        buf.extend_from_slice(&rlp_list(&fields(t)));
        let hash = keccak256(buf);
        assert_eq!(hash, t.signing_hash());
        let sk = SigningKey::from_slice(key.as_slice()).unwrap();
        let (sig, recid) = sk.sign_prehash_recoverable(hash.as_slice()).unwrap();
        let bytes = sig.to_bytes();
        let mut p = fields(t);
        rlp_uint(&mut p, U256::from(u8::from(recid.is_y_odd())));
        rlp_uint(&mut p, U256::from_be_slice(&bytes[..32]));
        rlp_uint(&mut p, U256::from_be_slice(&bytes[32..]));
        let mut raw = vec![0x02];
        raw.extend_from_slice(&rlp_list(&p));
        raw
    }

    #[test]
    fn alloy_encodes_exactly_as_the_hand_written_rlp_did() {
        for (nonce, value, data, fee) in [
            (0u64, U256::ZERO, Bytes::new(), 1u64),
            (
                7,
                U256::from(10u64).pow(U256::from(18)),
                Bytes::from(hex!("deadbeef")),
                3_000_000_000,
            ),
            (
                1 << 40,
                U256::MAX >> 1,
                Bytes::from(vec![0xab; 300]),
                u64::MAX,
            ),
        ] {
            let tx = Eip1559 {
                chain_id: 31337,
                nonce,
                max_priority_fee_per_gas: U256::from(fee / 2),
                max_fee_per_gas: U256::from(fee),
                gas_limit: 210_000,
                to: address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
                value,
                data,
            };
            assert_eq!(tx.sign(&KEY).unwrap(), legacy_sign(&tx, &KEY));
        }
    }

    #[test]
    fn dev_key_address() {
        assert_eq!(
            address_of(&KEY).unwrap(),
            address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        );
        assert!(address_of(&B256::ZERO).is_err());
    }

    #[test]
    fn rlp_basics() {
        let mut o = Vec::new();
        rlp_uint(&mut o, U256::ZERO);
        assert_eq!(o, [0x80]);
        let mut o = Vec::new();
        rlp_uint(&mut o, U256::from(0x7f));
        assert_eq!(o, [0x7f]);
        let mut o = Vec::new();
        rlp_uint(&mut o, U256::from(1024));
        assert_eq!(o, [0x82, 0x04, 0x00]);
        let mut o = Vec::new();
        rlp_bytes(&mut o, &[0u8; 60]);
        assert_eq!(&o[..2], &[0xb8, 60]);
        assert_eq!(rlp_list(&[]), [0xc0]);
    }

    #[test]
    fn signed_tx_recovers_to_the_signer() {
        let tx = Eip1559 {
            chain_id: 31337,
            nonce: 7,
            max_priority_fee_per_gas: U256::from(1_000_000_000u64),
            max_fee_per_gas: U256::from(3_000_000_000u64),
            gas_limit: 210_000,
            to: address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
            value: U256::from(10u64).pow(U256::from(18)),
            data: Bytes::from(hex!("deadbeef")),
        };
        let raw = tx.sign(&KEY).unwrap();
        assert_eq!(raw[0], 0x02);
        // The last 3 fields are yParity, r (0xa0 + 32 bytes), s (0xa0 + 32 bytes) unless r/s have leading zeros.
        let n = raw.len();
        let s = &raw[n - 32..];
        let r = &raw[n - 65..n - 33];
        let y = raw[n - 67];
        let parity = match y {
            0x80 => false,
            0x01 => true,
            other => panic!("unexpected yParity byte {other:#x}"),
        };
        let sig = Signature::new(U256::from_be_slice(r), U256::from_be_slice(s), parity);
        let who = sig
            .recover_address_from_prehash(&tx.signing_hash())
            .unwrap();
        assert_eq!(who, address_of(&KEY).unwrap());
    }
}
