//! `wasm-bindgen-test` tests of the app's logic in a real browser (headless Chromium):
//!
//! ```sh
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner CHROMEDRIVER=/usr/bin/chromedriver \
//!   cargo test -p eden-app --target wasm32-unknown-unknown
//! ```
//!
//! They run the same code paths as the page: k256 signing of a burner transaction in WASM, the
//! score check over an `eden-core` bundle, people's number formatting, a live read's re-read (D11), and the transaction log's
//! round trip through session storage.

use crate::state::{restore_txs, save_txs, TxEntry, TxState};
use crate::tx::{address_of, Eip1559};
use alloy_primitives::{b256, Address, Bytes, Signature, B256, U256};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn burner_signature_recovers_in_wasm() {
    let key = b256!("59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
    let tx = Eip1559 {
        chain_id: 31337,
        nonce: 1,
        max_priority_fee_per_gas: U256::from(1u8),
        max_fee_per_gas: U256::from(2u8),
        gas_limit: 21_000,
        to: Address::repeat_byte(7),
        value: U256::from(5u8),
        data: Bytes::new(),
    };
    let raw = tx.sign(&key).unwrap();
    let n = raw.len();
    let sig = Signature::new(
        U256::from_be_slice(&raw[n - 65..n - 33]),
        U256::from_be_slice(&raw[n - 32..]),
        raw[n - 67] == 0x01,
    );
    assert_eq!(
        sig.recover_address_from_prehash(&tx.signing_hash())
            .unwrap(),
        address_of(&key).unwrap()
    );
}

#[wasm_bindgen_test]
fn numbers_for_people_in_wasm() {
    assert_eq!(
        crate::fmt::units(U256::from(1_234_567_891u64), 3, 4),
        "1,234,568"
    );
    assert_eq!(
        crate::fmt::parse_units("0.5", 18).unwrap(),
        U256::from(500_000_000_000_000_000u64)
    );
}

#[wasm_bindgen_test]
fn transaction_log_survives_a_reload() {
    let txs = vec![TxEntry {
        state: TxState::Confirmed(B256::repeat_byte(1), 9),
        ..TxEntry::new(1, "Buy".into())
    }];
    save_txs(&txs);
    assert_eq!(restore_txs(), txs);
    // Only the newest entries are kept.
    let many: Vec<TxEntry> = (0..crate::state::TXS_KEPT as u64 + 5)
        .map(|i| TxEntry::new(i, format!("tx {i}")))
        .collect();
    save_txs(&many);
    let kept = restore_txs();
    assert_eq!(kept.len(), crate::state::TXS_KEPT);
    assert_eq!(kept.first().map(|e| e.id), Some(5));
}

#[wasm_bindgen_test]
fn slippage_applies_as_min_out_in_wasm() {
    assert_eq!(
        crate::flows::trade::min_out_down(U256::from(999u32), 100),
        U256::from(989u32)
    );
}

/// D11: a live read reads again a set time after each answer, never while it is still reading. Times are lower
/// bounds only (a timer never fires early); the upper bound is seconds wide.
#[wasm_bindgen_test]
async fn a_live_read_reads_again_after_each_answer_never_while_reading() {
    use crate::pages::read_again::ReadAgain;
    use leptos::prelude::*;
    use std::time::Duration;
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let owner = Owner::new();
    owner.set();
    let now = || js_sys::Date::now();
    // (started, answered) of each read, in ms.
    let reads = StoredValue::new(Vec::<(f64, f64)>::new());
    let again = ReadAgain::waiting(Duration::from_millis(150));
    let read = LocalResource::new(move || {
        again.track();
        async move {
            let started = now();
            gloo_timers::future::TimeoutFuture::new(100).await;
            reads.update_value(|r| r.push((started, now())));
        }
    });
    again.after(read);
    for _ in 0..60 {
        gloo_timers::future::TimeoutFuture::new(50).await;
        if reads.with_value(Vec::len) >= 3 {
            break;
        }
    }
    let r = reads.get_value();
    assert!(r.len() >= 3, "read {} times in 3 s", r.len());
    for w in r.windows(2) {
        assert!(
            w[1].0 >= w[0].1 + 149.0,
            "a read started {} ms after the one before answered",
            w[1].0 - w[0].1
        );
    }
    drop(owner);
}
