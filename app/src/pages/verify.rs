//! The "Verify a Merkle proof" page: paste a root, a leaf and its proof; the wasm core checks it.

use crate::flows::proof_check::{self, CheckInput, Outcome};
use leptos::prelude::*;

/// A labelled text area bound to a signal.
#[component]
fn Field(
    label: &'static str,
    hint: &'static str,
    value: RwSignal<String>,
    #[prop(default = 2)] rows: u32,
    id: &'static str,
) -> impl IntoView {
    view! {
        <label class="field" for=id>
            <span class="label">{label}</span>
            <span class="hint">{hint}</span>
            <textarea
                id=id
                rows=rows
                spellcheck="false"
                autocomplete="off"
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev))
            ></textarea>
        </label>
    }
}

#[component]
pub fn VerifyPage() -> impl IntoView {
    let root = RwSignal::new(String::new());
    let encoding = RwSignal::new(String::from("address, uint256"));
    let value = RwSignal::new(String::new());
    let proof = RwSignal::new(String::new());
    let result: RwSignal<Option<Result<Outcome, proof_check::InputError>>> = RwSignal::new(None);

    // Any edit invalidates a shown result, so a stale verdict is never on screen.
    Effect::new(move |_| {
        root.track();
        encoding.track();
        value.track();
        proof.track();
        result.set(None);
    });

    let check = move |_| {
        let input = CheckInput {
            root: root.get_untracked(),
            leaf_encoding: encoding.get_untracked(),
            value: value.get_untracked(),
            proof: proof.get_untracked(),
        };
        result.set(Some(proof_check::check(&input)));
    };

    let load_example = move |_| {
        let ex = proof_check::example();
        encoding.set(ex.leaf_encoding);
        value.set(ex.value);
        proof.set(ex.proof);
        root.set(ex.root);
    };

    let clear = move |_| {
        for s in [root, value, proof] {
            s.set(String::new());
        }
    };

    view! {
        <section class="card">
            <h1>"Verify a Merkle proof"</h1>
            <p class="lede">
                "Eden commits every epoch's scores to one Merkle root (OpenZeppelin "
                <code>"StandardMerkleTree"</code>
                ", standard-v1). Paste the root, a leaf and its proof: your browser hashes the leaf and walks the proof, no server involved."
            </p>
            <div class="actions top-actions">
                <button class="secondary" on:click=load_example>"Load an example"</button>
                <button class="secondary" on:click=clear>"Clear"</button>
            </div>
            <Field id="root" label="Merkle root" hint="0x followed by 64 hex digits" value=root rows=1 />
            <Field
                id="encoding"
                label="Leaf encoding"
                hint="Solidity types, e.g. address, uint256 — or a JSON array [\"address\",\"uint256\"]"
                value=encoding
                rows=1
            />
            <Field
                id="value"
                label="Leaf value"
                hint="a JSON array with one entry per type; numbers as decimal strings, e.g. [\"0x…\", \"5000000000000000000\"]"
                value=value
                rows=3
            />
            <Field
                id="proof"
                label="Proof"
                hint="a JSON array of 32-byte hex hashes, or one hash per line; empty for a one-leaf tree"
                value=proof
                rows=6
            />
            <div class="actions">
                <button class="primary" id="verify" on:click=check>"Verify"</button>
            </div>
            <ResultPanel result=result />
        </section>
    }
}

#[component]
fn ResultPanel(
    result: RwSignal<Option<Result<Outcome, proof_check::InputError>>>,
) -> impl IntoView {
    move || {
        match result.get() {
        None => view! { <div class="result empty" id="result">"Fill in the fields and press Verify."</div> }.into_any(),
        Some(Err(e)) => view! {
            <div class="result error" id="result" role="alert">
                <strong>{format!("{}: ", e.field)}</strong>
                {e.message.clone()}
            </div>
        }
        .into_any(),
        Some(Ok(o)) if o.verified => view! {
            <div class="result ok" id="result" role="status">
                <strong>"Verified. "</strong>
                "This leaf is in the tree with this root."
                <dl>
                    <dt>"Leaf hash"</dt><dd><code>{o.leaf_hash.clone()}</code></dd>
                    <dt>"Proof length"</dt><dd>{o.proof_len}" hashes"</dd>
                </dl>
            </div>
        }
        .into_any(),
        Some(Ok(o)) => view! {
            <div class="result bad" id="result" role="alert">
                <strong>"Not verified. "</strong>
                "The proof does not lead to this root: either the leaf, the encoding or the proof differs from what was committed."
                <dl>
                    <dt>"Leaf hash"</dt><dd><code>{o.leaf_hash.clone()}</code></dd>
                    <dt>"Root the proof leads to"</dt><dd><code>{o.computed_root.clone()}</code></dd>
                    <dt>"Root you gave"</dt><dd><code>{o.expected_root.clone()}</code></dd>
                </dl>
            </div>
        }
        .into_any(),
    }
    }
}
