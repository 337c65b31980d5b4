use super::*;
use crate::refetch::fixture::{serve, Request};
use eden_core::attest::Anomaly;
use std::time::Duration;

const PROJECT: Address = Address::repeat_byte(0x11);
const W: Window = Window {
    start: 1_763_999_999,
    end: 1_764_100_000,
};

/// A GitHub-compatible pulls API for acme/agent: the fixture's closed pull requests on page 1, each one's
/// reviews.
fn github(r: &Request) -> (u16, String) {
    let path = r.path();
    if path == "/repos/acme/agent/pulls" {
        let page = r.query("page").unwrap_or_default();
        return match page.as_str() {
            "1" => (200, include_str!("fixtures/pulls.json").into()),
            _ => (200, "[]".into()),
        };
    }
    if let Some(n) = path
        .strip_prefix("/repos/acme/agent/pulls/")
        .and_then(|p| p.strip_suffix("/reviews"))
    {
        let all: Value = serde_json::from_str(include_str!("fixtures/reviews.json")).unwrap();
        return (
            200,
            all.get(n)
                .cloned()
                .unwrap_or(Value::Array(vec![]))
                .to_string(),
        );
    }
    (404, r#"{"message": "Not Found"}"#.into())
}

fn adapter(base: &str) -> GitForge {
    GitForge {
        api: Api::new(base, Duration::from_secs(5)),
        metrics: vec!["merged_work".into()],
        repos: HashMap::from([(PROJECT, "acme/agent".to_string())]),
    }
}

#[tokio::test]
async fn merged_work_excludes_reverted_bot_and_self_approved_pull_requests() {
    let server = serve(github).await;
    let got = adapter(&server.base).fetch(PROJECT, W).await.unwrap();
    let r = &got["merged_work"];
    // #41, and #48 (approved by frank after bob asked for changes).
    assert_eq!(r.value, U256::from(2));
    let named: Vec<(Anomaly, &str)> = r
        .excluded
        .iter()
        .map(|e| (e.kind, e.item.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            (Anomaly::Bot, "#42"),
            (Anomaly::SelfApproved, "#43"),
            (Anomaly::Reverted, "#44"),
            (Anomaly::Reverted, "#45"),
        ]
    );
    assert!(r.excluded[2].detail.contains("reverted by #45"));
}

#[tokio::test]
async fn a_missing_repository_is_unavailable() {
    let server = serve(github).await;
    let mut a = adapter(&server.base);
    a.repos.insert(PROJECT, "acme/missing".into());
    let e = a.fetch(PROJECT, W).await.unwrap_err();
    assert!(e.contains("HTTP 404"), "{e}");
    let e = adapter(&server.base)
        .fetch(Address::ZERO, W)
        .await
        .unwrap_err();
    assert!(e.contains("no repository"), "{e}");
}

#[test]
fn a_pull_request_approved_only_by_its_author_or_nobody_is_self_approved() {
    let m = |number, author: &str, approvers: &[&str]| Merged {
        number,
        title: format!("pr {number}"),
        author: author.into(),
        bot: false,
        approvers: approvers.iter().map(|s| s.to_string()).collect(),
    };
    let r = merged_work(&[m(1, "a", &[]), m(2, "a", &["a"]), m(3, "a", &["a", "b"])]);
    assert_eq!(r.value, U256::from(1));
    assert_eq!(r.excluded.len(), 2);
}
