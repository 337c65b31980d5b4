//! Eden browser client: a Leptos client-side app over the wasm build of `eden-core`.
//!
//! Every number on screen is computed by `eden-core` in this page; nothing is trusted from a server.

mod proof_check;
mod verify_page;

use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

/// The application shell: header, the current page, footer.
#[component]
fn App() -> impl IntoView {
    view! {
        <header class="top">
            <a class="brand" href="./">"Eden"</a>
            <span class="tagline">"Check it yourself: every number is recomputed in your browser."</span>
        </header>
        <main>
            <verify_page::VerifyPage />
        </main>
        <footer>
            <span>"eden-core "{env!("CARGO_PKG_VERSION")}" · WebAssembly · no server trusted"</span>
        </footer>
    }
}
