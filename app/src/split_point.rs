//! One function in a WebAssembly module of its own, fetched the first time it is called (D11): the routed
//! pages ([`crate::pages::split`]) and the parts of pages that their first paint does without (the launch
//! list's score column and its 24 h changes, the launch form, a project's score history, the burner's signer,
//! following a transaction left pending at a reload;
//! `ON_DEMAND` in `scripts/app-modules.mjs` names their modules).
//!
//! [`on_demand!`] writes each such function twice from one definition:
//!  - in a build for the browser, a `#[wasm_split]` function (`wasm_split_helpers`, the mechanism behind
//!    Leptos's `#[lazy]`): `async`, and an import that `scripts/build-app.mjs` fills in when it cuts the
//!    module; `fallible`, so a failed download is the function's own error (`From<SplitLoaderError>`),
//!    never a panic;
//!  - in test builds, which no build step cuts (the import would never be filled, and a browser test that
//!    reached it would wait for ever), a plain `async fn` with the same body.

/// `on_demand! { /// docs  module: pub fn name(args) -> Result<T, E> { body } }`: `name` in WebAssembly
/// module `module`, loaded on its first call (see the module's docs). `E` must implement
/// `From<leptos::wasm_split::SplitLoaderError>`.
macro_rules! on_demand {
    (
        $(#[$doc:meta])*
        $module:ident: $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> Result<$ok:ty, $err:ty> $body:block
    ) => {
        $(#[$doc])*
        #[cfg(not(test))]
        #[::leptos::wasm_split::wasm_split($module, wasm_split_path = ::leptos::wasm_split, fallible)]
        $vis fn $name($($arg: $ty),*) -> Result<$ok, $err> $body

        $(#[$doc])*
        #[cfg(test)]
        $vis async fn $name($($arg: $ty),*) -> Result<$ok, $err> $body
    };
}

pub(crate) use on_demand;
