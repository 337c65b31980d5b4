//! The routed pages.

pub mod calls;
pub mod duel;
pub mod launch;
pub mod payouts;
pub mod score;

use leptos::prelude::*;

/// A page whose contracts are not deployed yet: says so plainly, shows no invented data.
#[component]
pub fn Soon(title: &'static str, what: &'static str) -> impl IntoView {
    view! {
        <section class="card soon">
            <h1>{title}</h1>
            <p class="empty" id="coming-soon">"Coming with the next contracts release."</p>
            <p class="muted">"This page will show " {what} ". Its contracts are not on this chain yet, so there is nothing to show: no placeholder numbers."</p>
        </section>
    }
}
