//! Reading a deployment's publications (C22, C23) from its publication bases, once for the app and the
//! operator, with one meaning of "not published": every base that could be asked answered "not found". A
//! base that is down or failing leaves the question open, so a caller never takes an outage for an absent
//! publication. What is read is never trusted: callers check it against roots the chain holds.

use std::fmt::Display;

/// A byte fetcher (the app's browser `fetch`, the operator's reqwest client).
// `async fn` in a public trait: the browser's futures are not `Send` (see `crate::read`).
#[allow(async_fn_in_trait)]
pub trait Fetch {
    /// Why a GET failed (unreachable, an HTTP error other than not found, a body cut short).
    type Error: Display;

    /// The bytes at `url`; `Ok(None)` when the host says it does not have them ([`is_not_found`]).
    ///
    /// # Errors
    /// Anything else that stops the read.
    async fn get(&self, url: &str) -> Result<Option<Vec<u8>>, Self::Error>;
}

/// Why no base served a publication.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unserved<E> {
    /// Every base answered "not found": it is not published.
    #[error("not published (every base answers not found)")]
    NotFound,
    /// No `http(s)` base to ask.
    #[error("the network description names no http(s) publication base")]
    NoBase,
    /// A base failed (the last failure): whether it is published is not known.
    #[error("{0}")]
    Failed(E),
}

/// Whether an answer means "the host does not have it": HTTP 404 or 410, or a page of HTML (a static host
/// that serves a single-page app answers an unknown path with its `index.html` and status 200; every
/// publication is JSON or MessagePack).
pub fn is_not_found(status: u16, content_type: Option<&str>) -> bool {
    matches!(status, 404 | 410) || ((200..300).contains(&status) && is_html(content_type))
}

/// Whether a `content-type` names an HTML page.
pub fn is_html(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|t| {
        t.trim_start()
            .get(..9)
            .is_some_and(|p| p.eq_ignore_ascii_case("text/html"))
    })
}

/// The bases a GET can use: `http(s)` as they are; others (`ipfs://`) need a gateway, which a person adds
/// as another base.
pub fn http_bases(bases: &[String]) -> impl Iterator<Item = &str> {
    bases
        .iter()
        .map(String::as_str)
        .filter(|b| b.starts_with("http://") || b.starts_with("https://"))
}

/// The bytes at `path` (relative to each base, which ends in `/`) from the first base that serves them.
///
/// # Errors
/// [`Unserved::NotFound`] only when every base answered not found; [`Unserved::Failed`] with the last
/// failure when any base failed; [`Unserved::NoBase`] without an `http(s)` base.
pub async fn first_served<F: Fetch>(
    fetch: &F,
    bases: &[String],
    path: &str,
) -> Result<Vec<u8>, Unserved<F::Error>> {
    let mut failed = None;
    let mut asked = false;
    for base in http_bases(bases) {
        asked = true;
        match fetch.get(&format!("{base}{path}")).await {
            Ok(Some(bytes)) => return Ok(bytes),
            Ok(None) => {}
            Err(e) => failed = Some(e),
        }
    }
    match (failed, asked) {
        (Some(e), _) => Err(Unserved::Failed(e)),
        (None, true) => Err(Unserved::NotFound),
        (None, false) => Err(Unserved::NoBase),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    fn ready<T>(f: impl Future<Output = T>) -> T {
        match pin!(f).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("the fake host never waits"),
        }
    }

    /// Hosts by base: `Some(Some(b))` serves `b`, `Some(None)` says not found, `None` is down.
    struct Hosts(
        Vec<(&'static str, Option<Option<&'static [u8]>>)>,
        RefCell<Vec<String>>,
    );

    impl Fetch for Hosts {
        type Error = String;
        async fn get(&self, url: &str) -> Result<Option<Vec<u8>>, String> {
            self.1.borrow_mut().push(url.to_string());
            let (_, answer) = self.0.iter().find(|(b, _)| url.starts_with(b)).unwrap();
            match answer {
                Some(a) => Ok(a.map(<[u8]>::to_vec)),
                None => Err(format!("{url}: connection refused")),
            }
        }
    }

    fn bases(h: &Hosts) -> Vec<String> {
        h.0.iter().map(|(b, _)| b.to_string()).collect()
    }

    #[test]
    fn the_first_base_that_serves_wins_in_order() {
        let h = Hosts(
            vec![("http://a/", Some(None)), ("http://b/", Some(Some(b"x")))],
            RefCell::default(),
        );
        assert_eq!(
            ready(first_served(&h, &bases(&h), "p.json")),
            Ok(b"x".to_vec())
        );
        assert_eq!(*h.1.borrow(), ["http://a/p.json", "http://b/p.json"]);
    }

    #[test]
    fn not_published_only_when_every_base_says_not_found() {
        let all = Hosts(
            vec![("http://a/", Some(None)), ("http://b/", Some(None))],
            RefCell::default(),
        );
        assert_eq!(
            ready(first_served(&all, &bases(&all), "p")),
            Err(Unserved::NotFound)
        );
        // A base that is down leaves it unknown, whichever order the bases are in.
        for hosts in [
            vec![("http://a/", None), ("http://b/", Some(None))],
            vec![("http://a/", Some(None)), ("http://b/", None)],
        ] {
            let h = Hosts(hosts, RefCell::default());
            assert!(matches!(
                ready(first_served(&h, &bases(&h), "p")),
                Err(Unserved::Failed(e)) if e.contains("connection refused")
            ));
        }
        let none = Hosts(vec![], RefCell::default());
        let ipfs = vec!["ipfs://cid/".to_string()];
        assert_eq!(
            ready(first_served(&none, &ipfs, "p")),
            Err(Unserved::NoBase)
        );
    }

    #[test]
    fn a_static_hosts_html_fallback_is_not_found() {
        assert!(is_not_found(404, None) && is_not_found(410, Some("application/json")));
        assert!(is_not_found(200, Some("text/html; charset=utf-8")));
        assert!(is_not_found(200, Some("TEXT/HTML")));
        assert!(!is_not_found(200, Some("application/json")));
        assert!(!is_not_found(200, None));
        assert!(!is_not_found(503, Some("text/html")));
    }
}
