//! The compact encoding of the full publications (C23): MessagePack of the same serde data model as
//! their JSON, with the same field names (maps, so the format stays self-describing and any
//! MessagePack reader opens it). Integers are MessagePack integers; hashes, addresses and signatures
//! raw `bin` strings; a `U256` its big-endian bytes without leading zeros ([`crate::serde_dec`]). A
//! publication is a map, so its first byte (`0x80`–`0x8f`, `0xde` or `0xdf`) tells it from JSON (`{`).
//!
//! Decoding is bounded and strict: nesting stops at [`MAX_DEPTH`] levels, no length read from the
//! input is trusted for an allocation (bytes are read as they arrive; serde caps pre-sized vectors),
//! nothing may follow the value, and an error names the field's path. A decoded publication is then
//! checked like a JSON one (its roots rebuilt), so the encoding itself carries no trust.

use serde::{de::DeserializeOwned, Serialize};

/// The deepest nesting a compact publication may have (a bundle needs 6 levels).
pub const MAX_DEPTH: usize = 64;

/// A compact publication that cannot be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompactError {
    /// The bytes do not start with a MessagePack map.
    #[error("not a compact publication: it does not start with a MessagePack map")]
    NotMsgpack,
    /// Malformed MessagePack, or a field of the wrong shape (the message names its path).
    #[error("{0}")]
    Decode(String),
    /// Bytes after the value.
    #[error("{0} bytes after the end of the value")]
    Trailing(usize),
    /// The value could not be encoded (a serializer error; not expected for this crate's types).
    #[error("cannot encode: {0}")]
    Encode(String),
}

/// Whether `bytes` is a compact publication: it starts with a MessagePack map (fixmap, map16 or
/// map32), which no JSON text does.
pub fn is_msgpack(bytes: &[u8]) -> bool {
    matches!(bytes.first(), Some(0x80..=0x8f | 0xde | 0xdf))
}

/// `value` as a compact publication. Deterministic: the same value gives the same bytes (fields in
/// declaration order, shortest integer forms).
///
/// # Errors
/// Only if a serializer refuses the value.
pub fn to_msgpack<T: Serialize>(value: &T) -> Result<Vec<u8>, CompactError> {
    rmp_serde::to_vec_named(value).map_err(|e| CompactError::Encode(e.to_string()))
}

/// Reads a compact publication written by [`to_msgpack`].
///
/// # Errors
/// [`CompactError::NotMsgpack`] unless it starts with a map, [`CompactError::Decode`] naming the
/// field's path, [`CompactError::Trailing`] for bytes after the value.
pub fn from_msgpack<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CompactError> {
    if !is_msgpack(bytes) {
        return Err(CompactError::NotMsgpack);
    }
    // The fast path without path tracking; a failure is decoded again to name the field.
    let mut rest = bytes;
    match T::deserialize(&mut reader(&mut rest)) {
        Ok(value) if rest.is_empty() => Ok(value),
        Ok(_) => Err(CompactError::Trailing(rest.len())),
        Err(_) => {
            let mut again = bytes;
            let e = match serde_path_to_error::deserialize::<_, T>(&mut reader(&mut again)) {
                Ok(_) => return Err(CompactError::Decode("unreadable".into())),
                Err(e) => e,
            };
            let path = e.path().to_string();
            let msg = describe(e.into_inner());
            Err(CompactError::Decode(if path.is_empty() || path == "." {
                msg
            } else {
                format!("{path}: {msg}")
            }))
        }
    }
}

/// A MessagePack reader over `bytes` (advanced as it reads), nesting bounded by [`MAX_DEPTH`].
fn reader<'a, 'b>(
    bytes: &'a mut &'b [u8],
) -> rmp_serde::Deserializer<rmp_serde::decode::ReadReader<&'a mut &'b [u8]>> {
    let mut de = rmp_serde::Deserializer::new(bytes);
    de.set_max_depth(MAX_DEPTH);
    de
}

fn describe(e: rmp_serde::decode::Error) -> String {
    use rmp_serde::decode::Error;
    match e {
        Error::InvalidMarkerRead(e) | Error::InvalidDataRead(e)
            if e.kind() == std::io::ErrorKind::UnexpectedEof =>
        {
            "the publication ends in the middle of a value".into()
        }
        Error::DepthLimitExceeded => format!("nested more than {MAX_DEPTH} levels deep"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy_primitives::{Address, B256, U256};
    use proptest::prelude::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Wire {
        #[serde(with = "crate::serde_dec::u256")]
        amount: U256,
        #[serde(with = "crate::serde_dec::u256_vec")]
        values: Vec<U256>,
        #[serde(with = "crate::serde_dec::opt_u256")]
        maybe: Option<U256>,
        #[serde(with = "crate::serde_dec::checksum")]
        who: Address,
        leaf: B256,
        #[serde(with = "crate::serde_dec::int")]
        epoch: u64,
        #[serde(with = "crate::serde_dec::u128_dec")]
        liquidity: u128,
        #[serde(default, with = "crate::serde_dec::b256_or_zero")]
        salt: B256,
    }

    fn wire() -> Wire {
        Wire {
            amount: U256::from(1_000_000u64),
            values: vec![U256::ZERO, U256::from(255u8), U256::MAX],
            maybe: Some(U256::from(7u8)),
            who: Address::repeat_byte(0xab),
            leaf: B256::repeat_byte(0x11),
            epoch: 42,
            liquidity: u128::MAX,
            salt: B256::repeat_byte(0x22),
        }
    }

    /// `1,000,000` as MessagePack `bin8` of 3 bytes.
    const MILLION: [u8; 5] = [0xc4, 3, 0x0f, 0x42, 0x40];

    #[test]
    fn integers_and_hashes_are_bytes() {
        let b = to_msgpack(&wire()).unwrap();
        assert!(is_msgpack(&b));
        assert_eq!(b[0], 0x88, "a map of the 8 fields");
        // 1,000,000 = 0x0f4240 is 3 bytes, not decimal text; zero is the empty byte string; the
        // address is 20 raw bytes.
        assert!(b.windows(5).any(|w| w == MILLION));
        assert!(b.windows(2).any(|w| w == [0xc4, 0]));
        let mut addr = vec![0xc4, 20];
        addr.extend([0xab; 20]);
        assert!(b.windows(22).any(|w| w == addr.as_slice()));
        assert_eq!(from_msgpack::<Wire>(&b).unwrap(), wire());
        let json = serde_json::to_string(&wire()).unwrap();
        assert!(!is_msgpack(json.as_bytes()));
        assert!(
            b.len() * 10 < json.len() * 6,
            "{} vs {}",
            b.len(),
            json.len()
        );
    }

    #[test]
    fn refusals() {
        let b = to_msgpack(&wire()).unwrap();
        let json = serde_json::to_vec(&wire()).unwrap();
        assert_eq!(from_msgpack::<Wire>(&json), Err(CompactError::NotMsgpack));
        let mut longer = b.clone();
        longer.push(0);
        assert_eq!(
            from_msgpack::<Wire>(&longer),
            Err(CompactError::Trailing(1))
        );
        let short = from_msgpack::<Wire>(&b[..b.len() - 5]).unwrap_err();
        assert!(short.to_string().contains("ends in the middle"), "{short}");
        // A U256 with a leading zero byte (two encodings of one value) is refused, with its path.
        let mut bad = b.clone();
        let i = bad.windows(5).position(|w| w == MILLION).unwrap();
        bad[i + 2] = 0;
        let e = from_msgpack::<Wire>(&bad).unwrap_err().to_string();
        assert!(e.contains("amount") && e.contains("leading zero"), "{e}");
        // 33 bytes do not fit.
        let mut over = b.clone();
        over.splice(i..i + 5, [0xc4, 33].into_iter().chain([1u8; 33]));
        let e = from_msgpack::<Wire>(&over).unwrap_err().to_string();
        assert!(
            e.contains("amount") && e.contains("33 bytes do not fit"),
            "{e}"
        );
        // A byte string that claims 4 GiB: an error, not an allocation.
        let huge = [0x81, 0xa1, b'a', 0xc6, 0xff, 0xff, 0xff, 0xff, 1, 2];
        assert!(matches!(
            from_msgpack::<serde_json::Value>(&huge),
            Err(CompactError::Decode(_))
        ));
        // Deep nesting stops at the limit.
        let mut deep = vec![0x81, 0xa1, b'a'];
        deep.extend(std::iter::repeat_n(0x91, 100_000));
        deep.push(0xc0);
        let e = from_msgpack::<serde_json::Value>(&deep)
            .unwrap_err()
            .to_string();
        assert!(e.contains("levels deep"), "{e}");
    }

    proptest! {
        /// Every value survives the round trip, and the encoding is deterministic.
        #[test]
        fn round_trip(a in any::<[u64; 4]>(), v in proptest::collection::vec(any::<[u64; 4]>(), 0..8),
                      m in any::<Option<u128>>(), who in any::<[u8; 20]>(), e in any::<u64>(), l in any::<u128>()) {
            let w = Wire {
                amount: U256::from_limbs(a),
                values: v.into_iter().map(U256::from_limbs).collect(),
                maybe: m.map(U256::from),
                who: Address::from(who),
                leaf: B256::from(U256::from_limbs(a)),
                epoch: e,
                liquidity: l,
                salt: B256::ZERO,
            };
            let b = to_msgpack(&w).unwrap();
            prop_assert_eq!(&to_msgpack(&w).unwrap(), &b);
            prop_assert_eq!(from_msgpack::<Wire>(&b).unwrap(), w);
        }

        /// Arbitrary bytes after a map head are read or refused, never a panic; so are arbitrary
        /// changes to a real publication.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300),
                                       at in any::<usize>(), x in any::<u8>()) {
            let mut b = vec![0x88];
            b.extend(bytes);
            let _ = from_msgpack::<Wire>(&b);
            let _ = from_msgpack::<serde_json::Value>(&b);
            let mut real = to_msgpack(&wire()).unwrap();
            let i = at % real.len();
            real[i] ^= x;
            let _ = from_msgpack::<Wire>(&real);
        }
    }
}
