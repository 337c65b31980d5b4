//! Log paging, once for the app and the operator: every `eth_getLogs` scan goes through [`read_logs`].
//! Ranges are read in chain order, at most the network's log range per request (D1 settings, default
//! 10,000 blocks); a range the node refuses ("range too large", "too many results", the wordings public
//! nodes use) is halved and read again, down to a single block, and the range grows back (doubling, up
//! to the limit) after each answer.

use std::future::Future;

/// What [`read_logs`] needs to know of a transport's error.
pub trait PageError: Sized {
    /// Whether the node asks for fewer blocks (see [`refuses_range`] for the wordings).
    fn refuses_range(&self) -> bool;
    /// The same error, naming the block range `[lo, hi]` it happened on.
    fn in_range(self, lo: u64, hi: u64) -> Self;
}

/// Whether a node's error message means "ask for fewer blocks": the wordings of geth ("exceed maximum
/// block range"), Infura ("query returned more than 10000 results"), Alchemy ("Log response size
/// exceeded"), QuickNode ("is limited to a 10,000 range"), Ankr ("block range is too wide") and others
/// ("range too large", "too many results", "limit exceeded").
pub fn refuses_range(message: &str) -> bool {
    let m = message.to_lowercase();
    [
        "range too large",
        "range is too large",
        "block range",
        "too many results",
        "more than",
        "response size",
        "limited to",
        "too wide",
        "limit exceeded",
        "query timeout",
    ]
    .iter()
    .any(|w| m.contains(w))
}

/// Reads the logs of blocks `[from, to]` through `fetch(lo, hi)` (one `eth_getLogs` of `[lo, hi]`, in
/// whichever log type the transport has), at most `max_range` blocks per request, in chain order, splitting any range the node refuses.
///
/// # Errors
/// The first error that is not a refused range (or a refused single block), naming its range.
pub async fn read_logs<T, E, F, Fut>(
    mut fetch: F,
    from: u64,
    to: u64,
    max_range: u64,
) -> Result<Vec<T>, E>
where
    E: PageError,
    F: FnMut(u64, u64) -> Fut,
    Fut: Future<Output = Result<Vec<T>, E>>,
{
    let max_range = max_range.max(1);
    let mut range = max_range;
    let mut out = Vec::new();
    let mut lo = from;
    while lo <= to {
        let hi = lo.saturating_add(range - 1).min(to);
        match fetch(lo, hi).await {
            Ok(mut logs) => {
                out.append(&mut logs);
                if hi == u64::MAX {
                    break;
                }
                lo = hi + 1;
                range = range.saturating_mul(2).min(max_range);
            }
            Err(e) if hi > lo && e.refuses_range() => range = (hi - lo).div_ceil(2).max(1),
            Err(e) => return Err(e.in_range(lo, hi)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_wordings_for_too_large_are_recognised() {
        for m in [
            "exceed maximum block range: 5000",
            "query returned more than 10000 results",
            "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range",
            "eth_getLogs is limited to a 10,000 range",
            "block range is too wide",
            "range too large",
        ] {
            assert!(refuses_range(m), "{m}");
        }
        assert!(!refuses_range("nonce too low"));
    }
}
