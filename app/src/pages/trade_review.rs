//! The review step before every trade (issue 42 item 3, D5), for the curve's and the pools' forms
//! alike: the trade's button opens it; it names what leaves the wallet, what arrives at the quote,
//! the least that can arrive at the slippage setting, the price impact and what comes back; a high
//! impact asks more before the same confirming button sends (above 10 % the button says "anyway",
//! above 25 % "confirm" is typed first). A changed amount closes it (the forms reset `open`).

use crate::flows::trade::{impact_gate, ImpactGate, TradeReview, IMPACT_WARN_BPS};
use crate::fmt;
use crate::ui::Amount;
use leptos::prelude::*;

/// The class of a price impact: a warning from 3 %, bad above 10 % (D5).
pub(crate) fn impact_class(bps: u32) -> &'static str {
    match impact_gate(bps) {
        ImpactGate::None if bps < IMPACT_WARN_BPS => "",
        ImpactGate::None => "warn",
        _ => "bad",
    }
}

/// The review of one form's trade, shown while `open`; `on_go` sends it.
#[component]
pub(crate) fn ReviewPanel(
    /// The element ids' prefix (`buy`, `pool-sell`, `duel-a-buy`): `#buy-confirm`, `#buy-go`.
    #[prop(into)]
    side: String,
    open: RwSignal<bool>,
    review: Signal<Option<TradeReview>>,
    on_go: Callback<()>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    let close = move || {
        open.set(false);
        typed.set(String::new());
    };
    move || {
        let r = review.get()?;
        open.get().then(|| {
            let must_type = r.gate() == ImpactGate::TypeConfirm;
            let ok = move || !must_type || typed.get().trim().eq_ignore_ascii_case("confirm");
            let class = if r.gate() == ImpactGate::None { "review" } else { "review banner warn" };
            let pays = r.pays.clone();
            let got = r.receives.clone();
            view! {
                <div class=class id=format!("{side}-confirm") role="alertdialog" aria-label=format!("Review this {}", r.verb)>
                    <h4>{format!("Review this {}", r.verb)}</h4>
                    <dl class="kv">
                        <dt>"You pay"</dt><dd class="review-pays" title=pays.exact()>{pays.exact()}</dd>
                        <dt>"You receive"</dt><dd class="review-receives"><Amount raw=got.amount decimals=got.decimals unit=got.symbol.clone() sig=6 /></dd>
                        <dt>{format!("At least (slippage {})", fmt::percent_bps(r.slippage_bps))}</dt>
                        <dd class="review-min"><Amount raw=r.min_received decimals=got.decimals unit=got.symbol.clone() sig=6 /></dd>
                        <dt>"Price impact"</dt><dd class=format!("review-impact {}", impact_class(r.impact_bps))>{fmt::percent_bps(r.impact_bps)}</dd>
                        {r.comes_back.map(|b| view! {
                            <dt>"Comes back to you"</dt><dd class="review-back"><Amount raw=b decimals=pays.decimals unit=pays.symbol.clone() sig=8 /></dd>
                        })}
                    </dl>
                    {r.impact_warning().map(|w| view! { <p class="impact-warning">{w}</p> })}
                    {must_type.then(|| view! {
                        <label>"Type confirm to go ahead "<input id=format!("{side}-confirm-text") autocomplete="off" prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev)) /></label>
                    })}
                    <div class="actions">
                        <button class="primary" id=format!("{side}-go") disabled=move || !ok() on:click=move |_| { close(); on_go.run(()); }>{r.go_label()}</button>
                        " "<button class="secondary" id=format!("{side}-cancel") on:click=move |_| close()>"Cancel"</button>
                    </div>
                </div>
            }
        })
    }
}
