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

/// Reads a compact publication whose top-level map has a large array field `field` (an intake report's
/// `projects`): the array's elements are decoded on every core (with the `native` feature), the rest as
/// [`from_msgpack`] does. The value is the same as [`from_msgpack`]'s; on any error this decodes again
/// with [`from_msgpack`], so errors name the field's path just the same.
///
/// # Errors
/// As [`from_msgpack`].
pub fn from_msgpack_split<T, E>(
    bytes: &[u8],
    field: &str,
    put: impl FnOnce(&mut T, Vec<E>),
) -> Result<T, CompactError>
where
    T: DeserializeOwned,
    E: DeserializeOwned + Send,
{
    let fast = || -> Option<T> {
        let (shell, spans) = split_field(bytes, field)?;
        let mut value = from_msgpack::<T>(&shell).ok()?;
        let items = crate::par::map_init(
            &spans,
            || (),
            |_, &(a, b)| from_msgpack::<E>(&bytes[a..b]).ok(),
        );
        let items: Option<Vec<E>> = items.into_iter().collect();
        put(&mut value, items?);
        Some(value)
    };
    match fast() {
        Some(v) => Ok(v),
        None => from_msgpack::<T>(bytes),
    }
}

/// A value's bytes: `bytes[start..end]`.
type Span = (usize, usize);

/// The top-level map with `field`'s array emptied (re-encoded), and the byte span of each of its elements.
/// `None` when the bytes are not such a map (the caller then decodes them whole and names the error).
fn split_field(bytes: &[u8], field: &str) -> Option<(Vec<u8>, Vec<Span>)> {
    let (entries, mut p) = match *bytes.first()? {
        m @ 0x80..=0x8f => (usize::from(m & 0x0f), 1),
        0xde => (
            usize::from(u16::from_be_bytes(bytes.get(1..3)?.try_into().ok()?)),
            3,
        ),
        0xdf => (
            usize::try_from(u32::from_be_bytes(bytes.get(1..5)?.try_into().ok()?)).ok()?,
            5,
        ),
        _ => return None,
    };
    let mut shell = bytes[..p].to_vec();
    let mut spans = None;
    for _ in 0..entries {
        let key_end = skip(bytes, p)?;
        let key = &bytes[p..key_end];
        let value_end = skip(bytes, key_end)?;
        shell.extend_from_slice(key);
        if key_str(key) == Some(field) && spans.is_none() {
            let (n, mut q) = array_header(bytes, key_end)?;
            let mut v = Vec::with_capacity(n.min(bytes.len()));
            for _ in 0..n {
                let end = skip(bytes, q)?;
                v.push((q, end));
                q = end;
            }
            if q != value_end {
                return None;
            }
            spans = Some(v);
            shell.push(0x90); // an empty array
        } else {
            shell.extend_from_slice(&bytes[key_end..value_end]);
        }
        p = value_end;
    }
    (p == bytes.len()).then_some(())?;
    Some((shell, spans?))
}

/// A MessagePack string's text (fixstr, str8/16/32).
fn key_str(b: &[u8]) -> Option<&str> {
    let body = match *b.first()? {
        0xa0..=0xbf => b.get(1..)?,
        0xd9 => b.get(2..)?,
        0xda => b.get(3..)?,
        0xdb => b.get(5..)?,
        _ => return None,
    };
    std::str::from_utf8(body).ok()
}

/// An array's length and where its first element starts.
fn array_header(b: &[u8], p: usize) -> Option<(usize, usize)> {
    match *b.get(p)? {
        m @ 0x90..=0x9f => Some((usize::from(m & 0x0f), p + 1)),
        0xdc => Some((
            usize::from(u16::from_be_bytes(b.get(p + 1..p + 3)?.try_into().ok()?)),
            p + 3,
        )),
        0xdd => Some((
            usize::try_from(u32::from_be_bytes(b.get(p + 1..p + 5)?.try_into().ok()?)).ok()?,
            p + 5,
        )),
        _ => None,
    }
}

/// Where the MessagePack value starting at `p` ends (`None` if it is malformed or runs past the end).
/// Iterative: nesting costs no stack.
fn skip(b: &[u8], mut p: usize) -> Option<usize> {
    let be = |at: usize, n: usize| -> Option<usize> {
        let s = b.get(at..at.checked_add(n)?)?;
        let mut v: u64 = 0;
        for &x in s {
            v = (v << 8) | u64::from(x);
        }
        usize::try_from(v).ok()
    };
    let mut left: usize = 1;
    while left > 0 {
        left -= 1;
        let m = *b.get(p)?;
        let (head, body, more) = match m {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => (1, 0, 0),
            0x80..=0x8f => (1, 0, 2 * usize::from(m & 0x0f)),
            0x90..=0x9f => (1, 0, usize::from(m & 0x0f)),
            0xa0..=0xbf => (1, usize::from(m & 0x1f), 0),
            0xc4 | 0xd9 => (2, be(p + 1, 1)?, 0),
            0xc5 | 0xda => (3, be(p + 1, 2)?, 0),
            0xc6 | 0xdb => (5, be(p + 1, 4)?, 0),
            0xc7 => (3, be(p + 1, 1)?, 0),
            0xc8 => (4, be(p + 1, 2)?, 0),
            0xc9 => (6, be(p + 1, 4)?, 0),
            0xca => (5, 0, 0),
            0xcb => (9, 0, 0),
            0xcc | 0xd0 => (2, 0, 0),
            0xcd | 0xd1 => (3, 0, 0),
            0xce | 0xd2 => (5, 0, 0),
            0xcf | 0xd3 => (9, 0, 0),
            0xd4 => (3, 0, 0),
            0xd5 => (4, 0, 0),
            0xd6 => (6, 0, 0),
            0xd7 => (10, 0, 0),
            0xd8 => (18, 0, 0),
            0xdc => (3, 0, be(p + 1, 2)?),
            0xdd => (5, 0, be(p + 1, 4)?),
            0xde => (3, 0, 2 * be(p + 1, 2)?),
            0xdf => (5, 0, be(p + 1, 4)?.checked_mul(2)?),
            0xc1 => return None,
        };
        p = p.checked_add(head)?.checked_add(body)?;
        if p > b.len() {
            return None;
        }
        // Every element takes at least a byte: a count past the rest of the input is malformed.
        left = left.checked_add(more)?;
        if left > b.len() - p {
            return None;
        }
    }
    Some(p)
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
mod split_tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Item {
        name: String,
        n: i64,
        data: Vec<u8>,
        nested: Vec<Vec<Option<bool>>>,
        x: f64,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Doc {
        format: String,
        items: Vec<Item>,
        after: u64,
    }

    fn item() -> impl Strategy<Value = Item> {
        (
            ".{0,40}",
            any::<i64>(),
            proptest::collection::vec(any::<u8>(), 0..300),
            proptest::collection::vec(
                proptest::collection::vec(any::<Option<bool>>(), 0..20),
                0..20,
            ),
            any::<f64>().prop_filter("comparable", |x| !x.is_nan()),
        )
            .prop_map(|(name, n, data, nested, x)| Item {
                name,
                n,
                data,
                nested,
                x,
            })
    }

    fn split(b: &[u8]) -> Result<Doc, CompactError> {
        from_msgpack_split::<Doc, Item>(b, "items", |d, items| d.items = items)
    }

    proptest! {
        /// The split decode gives what the whole decode gives, for any document.
        #[test]
        fn split_decode_equals_whole_decode(items in proptest::collection::vec(item(), 0..40), after in any::<u64>()) {
            let d = Doc { format: "x".into(), items, after };
            let b = to_msgpack(&d).unwrap();
            prop_assert_eq!(split(&b).unwrap(), d);
            // Every value's span is the value: skipping the document ends at its end.
            prop_assert_eq!(skip(&b, 0), Some(b.len()));
        }

        /// Any bytes: the split decode never panics and errs exactly when the whole decode errs, with the
        /// same message.
        #[test]
        fn split_decode_of_any_bytes_is_the_whole_decodes(b in proptest::collection::vec(any::<u8>(), 0..200)) {
            prop_assert_eq!(split(&b), from_msgpack::<Doc>(&b));
        }

        /// A cut or corrupted document: the same result as the whole decode (an error naming the same path).
        #[test]
        fn damaged_documents_read_as_the_whole_decode_reads_them(
            items in proptest::collection::vec(item(), 1..10),
            cut in any::<prop::sample::Index>(),
            flip in any::<prop::sample::Index>(),
            byte in any::<u8>(),
        ) {
            let b = to_msgpack(&Doc { format: "x".into(), items, after: 1 }).unwrap();
            let short = &b[..cut.index(b.len())];
            prop_assert_eq!(split(short), from_msgpack::<Doc>(short));
            let mut bad = b.clone();
            bad[flip.index(b.len())] = byte;
            prop_assert_eq!(split(&bad), from_msgpack::<Doc>(&bad));
        }
    }

    #[test]
    fn huge_counts_are_refused_without_allocating() {
        // A map whose `items` claims 2^32 − 1 elements in a few bytes.
        let mut b = vec![0x81, 0xa5];
        b.extend_from_slice(b"items");
        b.extend_from_slice(&[0xdd, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(skip(&b, 0), None);
        assert!(split(&b).is_err());
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
