//! Fetching a thesis's sources: a thesis is written by anyone, so its URLs are hostile input (C8, decided).
//!
//! Rules of [`SourceFetcher::fetch`]:
//! - `http` and `https` only, no user name or password in the URL, no proxy, no cookies, no credentials;
//! - the host must be public: an IP literal is checked as written, a name is checked on **every address it
//!   resolves to** ([`PublicOnly`], the client's own resolver, so the address checked is the address
//!   connected to); loopback, private, link-local, carrier-grade NAT, multicast, documentation, benchmark
//!   and reserved ranges are refused, IPv4-mapped and NAT64 IPv6 addresses by their IPv4 part;
//! - redirects are followed by hand, at most [`MAX_REDIRECTS`], each hop checked as the first;
//! - only text content types ([`eden_core::scoring::source_text::SourceKind`]) are read, at most
//!   [`MAX_SOURCE_BYTES`] bytes, within the fetcher's timeout for the whole fetch;
//! - a local test host is allowed only when named, as `host:port`, in the configuration (`--allow-host`);
//!   the demo and the tests name theirs.
//!
//! Every refusal and failure is a [`FetchError`] recorded on the source; it never stops the grading.

use eden_core::scoring::source_text::SourceKind;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{HeaderValue, CONTENT_TYPE, LOCATION};
use reqwest::Url;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// Largest source body read, in bytes.
pub const MAX_SOURCE_BYTES: usize = 2 << 20;
/// Most redirects followed.
pub const MAX_REDIRECTS: usize = 5;

/// Why a source was not fetched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// Not an `http(s)` URL, or one with credentials.
    #[error("not a fetchable URL: {0}")]
    BadUrl(String),
    /// The host is not public (and not allowed by configuration).
    #[error("refused: {0} is not a public address")]
    NotPublic(String),
    /// Too many redirects.
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    /// The server answered an error status.
    #[error("HTTP {0}")]
    Status(u16),
    /// The content type is not text.
    #[error("content type {0:?} is not text")]
    NotText(String),
    /// The body is larger than the limit.
    #[error("larger than {MAX_SOURCE_BYTES} bytes")]
    TooLarge,
    /// The fetch took longer than its timeout.
    #[error("no complete answer within {0} s")]
    Timeout(u64),
    /// The connection failed.
    #[error("{0}")]
    Transport(String),
}

/// A fetched source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The `Content-Type` header.
    pub content_type: String,
    /// The body's bytes.
    pub body: Vec<u8>,
    /// The URL finally read (after redirects).
    pub final_url: String,
}

/// Whether `ip` is a public unicast address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits.
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                return is_public_v4(Ipv4Addr::new(
                    (s[6] >> 8) as u8,
                    s[6] as u8,
                    (s[7] >> 8) as u8,
                    s[7] as u8,
                ));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated) fec0::/10
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || s[0] == 0x2002 // 6to4: an IPv4 address inside; refused rather than decoded
                || (s[0] == 0x2001 && s[1] == 0)) // Teredo
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_unspecified()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // carrier-grade NAT 100.64/10
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments 192.0.0/24
        || (a == 198 && (b == 18 || b == 19)) // benchmarking 198.18/15
        || a >= 240) // reserved 240/4
}

/// The client's resolver: a name resolves only to its public addresses, unless the name is allowed.
pub struct PublicOnly {
    allowed_names: Vec<String>,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_string();
        let allowed = self
            .allowed_names
            .iter()
            .any(|a| a.eq_ignore_ascii_case(&host));
        Box::pin(async move {
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let kept: Vec<SocketAddr> = addrs
                .into_iter()
                .filter(|a| allowed || is_public(a.ip()))
                .collect();
            if kept.is_empty() {
                return Err(Box::new(FetchError::NotPublic(host))
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(kept.into_iter()) as Addrs)
        })
    }
}

/// Fetches sources by the module's rules.
pub struct SourceFetcher {
    client: reqwest::Client,
    allowed: Vec<(String, u16)>,
    timeout: Duration,
}

impl SourceFetcher {
    /// A fetcher allowing the non-public `host:port` pairs in `allow` (tests and the demo), each fetch
    /// bounded by `timeout`.
    ///
    /// # Errors
    /// A malformed `allow` entry.
    pub fn new(allow: &[String], timeout: Duration) -> Result<SourceFetcher, FetchError> {
        let mut allowed = Vec::new();
        for a in allow {
            let (h, p) = a.rsplit_once(':').ok_or_else(|| {
                FetchError::BadUrl(format!("--allow-host {a}: expected host:port"))
            })?;
            let p: u16 = p
                .parse()
                .map_err(|_| FetchError::BadUrl(format!("--allow-host {a}: bad port")))?;
            allowed.push((h.trim_matches(['[', ']']).to_ascii_lowercase(), p));
        }
        let resolver = PublicOnly {
            allowed_names: allowed.iter().map(|(h, _)| h.clone()).collect(),
        };
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(Arc::new(resolver))
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("eden-grader/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| FetchError::Transport(e.to_string()))?;
        Ok(SourceFetcher {
            client,
            allowed,
            timeout,
        })
    }

    /// Checks one hop's URL: scheme, credentials, and an IP literal's address.
    fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::BadUrl(format!("{url}: only http and https")));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(FetchError::BadUrl(format!(
                "{url}: credentials in a URL are not sent"
            )));
        }
        let host = url
            .host_str()
            .ok_or_else(|| FetchError::BadUrl(format!("{url}: no host")))?;
        let host = host.trim_matches(['[', ']']).to_ascii_lowercase();
        let port = url.port_or_known_default().unwrap_or(0);
        let named = self.allowed.iter().any(|(h, _)| *h == host);
        if named {
            return if self.allowed.iter().any(|(h, p)| *h == host && *p == port) {
                Ok(())
            } else {
                Err(FetchError::NotPublic(format!("{host}:{port}")))
            };
        }
        match host.parse::<IpAddr>() {
            Ok(ip) if !is_public(ip) => Err(FetchError::NotPublic(host)),
            _ => Ok(()),
        }
    }

    /// Fetches `url` by the module's rules.
    ///
    /// # Errors
    /// [`FetchError`] saying why nothing was read.
    pub async fn fetch(&self, url: &str) -> Result<Fetched, FetchError> {
        let secs = self.timeout.as_secs().max(1);
        tokio::time::timeout(self.timeout, self.fetch_inner(url))
            .await
            .map_err(|_| FetchError::Timeout(secs))?
    }

    async fn fetch_inner(&self, url: &str) -> Result<Fetched, FetchError> {
        let mut at = Url::parse(url).map_err(|e| FetchError::BadUrl(format!("{url}: {e}")))?;
        for _ in 0..=MAX_REDIRECTS {
            self.check_url(&at)?;
            let resp = self
                .client
                .get(at.clone())
                .header(
                    "accept",
                    HeaderValue::from_static(
                        "text/html, text/plain;q=0.9, text/*;q=0.8, application/json;q=0.5",
                    ),
                )
                .send()
                .await
                .map_err(|e| transport(&e))?;
            let status = resp.status();
            if status.is_redirection() {
                let loc = resp
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .ok_or(FetchError::Status(status.as_u16()))?;
                at = at
                    .join(loc)
                    .map_err(|e| FetchError::BadUrl(format!("redirect to {loc}: {e}")))?;
                continue;
            }
            if !status.is_success() {
                return Err(FetchError::Status(status.as_u16()));
            }
            let content_type = resp
                .headers()
                .get(CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_string();
            if SourceKind::of(&content_type).is_none() {
                return Err(FetchError::NotText(content_type));
            }
            if resp
                .content_length()
                .is_some_and(|n| n > MAX_SOURCE_BYTES as u64)
            {
                return Err(FetchError::TooLarge);
            }
            let mut resp = resp;
            let mut body = Vec::new();
            while let Some(chunk) = resp.chunk().await.map_err(|e| transport(&e))? {
                if body.len() + chunk.len() > MAX_SOURCE_BYTES {
                    return Err(FetchError::TooLarge);
                }
                body.extend_from_slice(&chunk);
            }
            return Ok(Fetched {
                content_type,
                body,
                final_url: at.to_string(),
            });
        }
        Err(FetchError::TooManyRedirects)
    }
}

/// A transport error, with a refusal by the resolver named as such.
fn transport(e: &reqwest::Error) -> FetchError {
    let mut src: Option<&dyn std::error::Error> = Some(e);
    while let Some(s) = src {
        if let Some(f) = s.downcast_ref::<FetchError>() {
            return f.clone();
        }
        src = s.source();
    }
    FetchError::Transport(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_and_private_addresses() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "198.18.0.1",
            "192.0.2.1",
            "240.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2001:db8::1",
            "ff02::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in [
            "1.1.1.1",
            "93.184.216.34",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[tokio::test]
    async fn hostile_urls_are_refused_before_any_connection() {
        let f = SourceFetcher::new(&["127.0.0.1:9".into()], Duration::from_secs(2)).unwrap();
        for (url, want) in [
            ("http://127.0.0.1:8545/", "not a public address"),
            (
                "http://169.254.169.254/latest/meta-data/",
                "not a public address",
            ),
            ("http://[::1]:8545/", "not a public address"),
            ("http://0x7f000001/", "not a public address"),
            ("http://localhost:8545/", "not a public address"),
            ("ftp://example.org/x", "only http and https"),
            ("http://user:pw@example.org/", "credentials"),
            ("file:///etc/passwd", "only http and https"),
        ] {
            let e = f.fetch(url).await.unwrap_err().to_string();
            assert!(e.contains(want), "{url}: {e}");
        }
    }
}
