use super::*;
use crate::refetch::fixture::{serve, Request};
use eden_core::attest::Anomaly;
use proptest::prelude::*;
use std::time::Duration;

const PROJECT: Address = Address::repeat_byte(0x11);
const W: Window = Window {
    start: 1_763_999_999,
    end: 1_764_100_000,
};

/// A tracker's issues of project ENG, three a page, `nextPage` until the last.
fn tracker(r: &Request) -> (u16, String) {
    if r.path() != "/projects/ENG/issues" {
        return (404, "{}".into());
    }
    let all: Vec<Value> = serde_json::from_str(include_str!("fixtures/issues.json")).unwrap();
    let page: usize = r.query("page").and_then(|p| p.parse().ok()).unwrap_or(1);
    let items: Vec<&Value> = all.iter().skip((page - 1) * 3).take(3).collect();
    let next = (page * 3 < all.len()).then_some(page + 1);
    (
        200,
        serde_json::json!({"issues": items, "nextPage": next}).to_string(),
    )
}

fn adapter(base: &str) -> WorkTracker {
    WorkTracker {
        api: Api::new(base, Duration::from_secs(5)),
        metrics: vec!["resolved_work".into()],
        projects: HashMap::from([(PROJECT, "ENG".to_string())]),
        members: HashMap::from([(PROJECT, vec!["founder".to_string()])]),
    }
}

#[tokio::test]
async fn resolved_work_excludes_reopened_duplicate_and_self_opened_items() {
    let server = serve(tracker).await;
    let got = adapter(&server.base).fetch(PROJECT, W).await.unwrap();
    let r = &got["resolved_work"];
    // ENG-101, and ENG-106 (reopened before it was resolved, so resolved for good).
    assert_eq!(r.value, U256::from(2));
    let named: Vec<(Anomaly, &str)> = r
        .excluded
        .iter()
        .map(|e| (e.kind, e.item.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            (Anomaly::Reopened, "ENG-102"),
            (Anomaly::Duplicate, "ENG-103"),
            (Anomaly::SelfOpened, "ENG-104"),
        ]
    );
    assert!(r.excluded[1].detail.contains("ENG-102"));
}

#[tokio::test]
async fn an_unconfigured_project_or_a_bad_page_is_unavailable() {
    let server = serve(tracker).await;
    let e = adapter(&server.base)
        .fetch(Address::ZERO, W)
        .await
        .unwrap_err();
    assert!(e.contains("no tracker project"), "{e}");
    let bad = serve(|_| {
        (
            200,
            r#"{"issues": [{"id": "X-1", "resolvedAt": "yesterday"}]}"#.into(),
        )
    })
    .await;
    let e = adapter(&bad.base).fetch(PROJECT, W).await.unwrap_err();
    assert!(e.contains("issue X-1") && e.contains("RFC 3339"), "{e}");
    let gone = serve(|_| (500, "{}".into())).await;
    let e = adapter(&gone.base).fetch(PROJECT, W).await.unwrap_err();
    assert!(e.contains("HTTP 500"), "{e}");
}

proptest! {
    /// Every resolved item in the window is counted or named, once.
    #[test]
    fn every_resolved_item_is_counted_or_named(items in proptest::collection::vec((any::<bool>(), any::<bool>(), any::<bool>()), 0..40)) {
        let list: Vec<Value> = items.iter().enumerate().map(|(i, &(reopened, dup, own))| serde_json::json!({
            "id": format!("X-{i}"), "resolvedAt": W.end, "reopenedAt": if reopened { Value::from(W.end + 1) } else { Value::Null },
            "duplicateOf": if dup { Value::from("X-0") } else { Value::Null }, "createdBy": if own { "founder" } else { "someone" },
        })).collect();
        let r = resolved(&list, &["founder".to_string()], W).unwrap();
        prop_assert_eq!(r.value + U256::from(r.excluded.len()), U256::from(items.len()));
    }

    /// Whatever a tracker sends, the rule answers or refuses; it never panics.
    #[test]
    fn any_issue_list_is_answered_or_refused(text in ".{0,200}") {
        if let Ok(Value::Array(list)) = serde_json::from_str::<Value>(&text) {
            let _ = resolved(&list, &[], W);
        }
        let v = serde_json::json!([{"id": text.clone(), "resolvedAt": text.clone(), "reopenedAt": text.clone()}]);
        let _ = resolved(v.as_array().unwrap(), &[], W);
    }
}
