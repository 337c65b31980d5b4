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

fn charges() -> Vec<Value> {
    serde_json::from_str(include_str!("fixtures/charges.json")).unwrap()
}

/// A Stripe-compatible charges list for `acct_demo` only, two charges a page, paged with `starting_after`.
fn stripe(r: &Request) -> (u16, String) {
    if r.path() != "/v1/charges" {
        return (404, r#"{"error":{"type":"invalid_request_error"}}"#.into());
    }
    if r.header("stripe-account") != Some("acct_demo") {
        return (401, r#"{"error":{"type":"authentication_error"}}"#.into());
    }
    let all = charges();
    let from = match r.query("starting_after") {
        Some(id) => all.iter().position(|c| c["id"] == id.as_str()).unwrap() + 1,
        None => 0,
    };
    let page: Vec<&Value> = all.iter().skip(from).take(2).collect();
    let more = from + 2 < all.len();
    (
        200,
        serde_json::json!({"object": "list", "data": page, "has_more": more}).to_string(),
    )
}

fn adapter(base: &str) -> Payments {
    Payments {
        api: Api::new(base, Duration::from_secs(5)),
        metrics: vec!["settled_revenue_cents".into()],
        accounts: HashMap::from([(PROJECT, "acct_demo".to_string())]),
        own_customers: HashMap::from([(PROJECT, vec!["cus_Q9founder".to_string()])]),
    }
}

#[tokio::test]
async fn settled_volume_nets_refunds_chargebacks_and_self_dealing_across_pages() {
    let server = serve(stripe).await;
    let got = adapter(&server.base).fetch(PROJECT, W).await.unwrap();
    let r = &got["settled_revenue_cents"];
    assert_eq!(r.value, U256::from(120_000 + 30_000 + 7_500));
    let named: Vec<(Anomaly, &str, U256)> = r
        .excluded
        .iter()
        .map(|e| (e.kind, e.item.as_str(), e.amount))
        .collect();
    assert_eq!(
        named,
        [
            (Anomaly::Refund, "ch_3PpartialRefund", U256::from(20_000)),
            (Anomaly::Chargeback, "ch_3Pchargeback", U256::from(30_000)),
            (Anomaly::SelfDealing, "ch_3PownCustomer", U256::from(40_000)),
            (Anomaly::SelfDealing, "ch_3PownWallet", U256::from(25_000)),
        ]
    );
    assert!(r.excluded[2].detail.contains("declared"));
    assert!(r.excluded[3].detail.contains("own address"));
}

#[tokio::test]
async fn an_unknown_project_a_refused_account_or_a_dead_source_is_unavailable() {
    let server = serve(stripe).await;
    let e = adapter(&server.base)
        .fetch(Address::repeat_byte(0x22), W)
        .await
        .unwrap_err();
    assert!(e.contains("no payments account"), "{e}");
    let mut wrong = adapter(&server.base);
    wrong.accounts.insert(PROJECT, "acct_other".into());
    let e = wrong.fetch(PROJECT, W).await.unwrap_err();
    assert!(e.contains("HTTP 401"), "{e}");
    let broken = serve(|_| (200, "{not json".into())).await;
    let e = adapter(&broken.base).fetch(PROJECT, W).await.unwrap_err();
    assert!(e.contains("not JSON"), "{e}");
    drop(server);
    let e = adapter("http://127.0.0.1:1")
        .fetch(PROJECT, W)
        .await
        .unwrap_err();
    assert!(e.starts_with("GET http://127.0.0.1:1/v1/charges"), "{e}");
}

#[test]
fn a_refund_above_the_charge_is_refused() {
    let c = serde_json::json!([{"id": "ch_x", "amount": 5, "amount_refunded": 6, "status": "succeeded", "created": W.end}]);
    let e = settled(c.as_array().unwrap(), PROJECT, &[], W).unwrap_err();
    assert!(e.contains("more than its 5"), "{e}");
}

proptest! {
    /// What counts plus what is excluded is every succeeded charge in the window: nothing is lost or
    /// counted twice.
    #[test]
    fn settled_plus_excluded_is_every_succeeded_charge(
        cs in proptest::collection::vec((1u64..1_000_000, 0u64..100, any::<bool>(), 0u8..4, any::<bool>()), 0..30)
    ) {
        let list: Vec<Value> = cs.iter().enumerate().map(|(i, &(amount, refund_pct, disputed, who, ok))| {
            let customer = ["cus_a", "cus_b", "cus_own", "cus_c"][who as usize];
            serde_json::json!({"id": format!("ch_{i}"), "amount": amount, "amount_refunded": amount * refund_pct / 100,
                "status": if ok { "succeeded" } else { "failed" }, "disputed": disputed, "customer": customer, "created": W.end})
        }).collect();
        let r = settled(&list, PROJECT, &["cus_own".to_string()], W).unwrap();
        let total: u64 = cs.iter().filter(|c| c.4).map(|c| c.0).sum();
        let excluded: U256 = r.excluded.iter().map(|e| e.amount).fold(U256::ZERO, |a, b| a + b);
        prop_assert_eq!(r.value + excluded, U256::from(total));
    }

    /// Whatever a source sends, the rule answers or refuses; it never panics.
    #[test]
    fn any_charge_list_is_answered_or_refused(text in ".{0,200}") {
        if let Ok(Value::Array(list)) = serde_json::from_str::<Value>(&text) {
            let _ = settled(&list, PROJECT, &[], W);
        }
        let v = serde_json::json!([{"id": text.clone(), "amount": text.clone(), "status": "succeeded", "created": W.end}]);
        let _ = settled(v.as_array().unwrap(), PROJECT, &[], W);
    }
}
