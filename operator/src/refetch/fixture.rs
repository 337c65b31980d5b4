//! A local HTTP server for the adapters' tests: each request's path and query and its headers go to a route,
//! whose status and JSON body are sent back (HTTP/1.1, one request per connection). On 127.0.0.1 only.

use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A request as a route sees it.
pub(super) struct Request {
    /// Path and query (`/v1/charges?limit=100`).
    pub(super) target: String,
    /// Headers, names lower-cased.
    pub(super) headers: Vec<(String, String)>,
}

impl Request {
    /// A query parameter's value.
    pub(super) fn query(&self, name: &str) -> Option<String> {
        let q = self.target.split_once('?')?.1;
        q.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            (k == name).then(|| v.to_string())
        })
    }

    /// A header's value.
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The path without the query.
    pub(super) fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

/// A running server; stopped when dropped.
pub(super) struct Server {
    /// `http://127.0.0.1:<port>`.
    pub(super) base: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `route` on a free port of 127.0.0.1.
pub(super) async fn serve(
    route: impl Fn(&Request) -> (u16, String) + Send + Sync + 'static,
) -> Server {
    let l = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1");
    let base = format!("http://{}", l.local_addr().expect("address"));
    let route = Arc::new(route);
    let task = tokio::spawn(async move {
        while let Ok((mut s, _)) = l.accept().await {
            let route = route.clone();
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match s.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&buf).to_string();
                let mut lines = head.split("\r\n");
                let target = lines
                    .next()
                    .and_then(|l| l.split(' ').nth(1))
                    .unwrap_or("/")
                    .to_string();
                let headers = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
                    .collect();
                let (status, body) = route(&Request { target, headers });
                let reply = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = s.write_all(reply.as_bytes()).await;
            });
        }
    });
    Server { base, task }
}
