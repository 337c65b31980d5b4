//! A page, or a part of one, whose WebAssembly module may still be loading (D11): the loading line until it has
//! arrived, then the view; the failure and a "Try again" button if it did not. The split points that use it are
//! in [`super::split`] (the pages) and beside the code they load.

use leptos::prelude::*;
use leptos::task::spawn_local_scoped;
use leptos::wasm_split::SplitLoaderError;
use std::future::Future;

/// A page's code could not be downloaded (the network failed while its module was fetched).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("This page's code could not be downloaded ({0}). Check the connection and try again.")]
pub struct PageNotLoaded(String);

impl From<SplitLoaderError> for PageNotLoaded {
    fn from(e: SplitLoaderError) -> Self {
        Self(e.to_string())
    }
}

/// A page whose module may still be loading: the loading line until it has arrived, then the page; the
/// failure and a "Try again" button if it did not. [`deferred_part`] with the page's words.
///
/// Not a `<Suspense>`: the page's own resources would register with it, and every reload of one (after
/// each transaction) would swap the whole page for the loading line. The page is built once, under this
/// view's owner (its context, and its cleanup when the route is left), and shown when it is ready.
pub fn deferred<F, Fut>(load: F) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, PageNotLoaded>> + 'static,
{
    deferred_part("Loading this page…", load)
}

/// A part of a page whose module may still be loading, as [`deferred`]: `loading` until it has arrived.
pub fn deferred_part<F, Fut>(loading: &'static str, load: F) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Result<AnyView, PageNotLoaded>> + 'static,
{
    let outcome = RwSignal::new(None::<Result<(), PageNotLoaded>>);
    let page = StoredValue::new_local(None::<AnyView>);
    let owner = Owner::current().unwrap_or_default();
    let start = move || {
        outcome.set(None);
        owner.with(|| {
            spawn_local_scoped(async move {
                match load().await {
                    Ok(view) => {
                        page.set_value(Some(view));
                        outcome.set(Some(Ok(())));
                    }
                    Err(e) => outcome.set(Some(Err(e))),
                }
            })
        });
    };
    start();
    move || {
        match outcome.get() {
        None => view! { <section class="card"><p class="muted" id="page-loading">{loading}</p></section> }.into_any(),
        Some(Ok(())) => page.try_update_value(Option::take).flatten().unwrap_or_else(|| ().into_any()),
        Some(Err(e)) => {
            let start = start.clone();
            view! {
                <section class="card" id="page-not-loaded">
                    <p class="error" role="alert">{e.to_string()}</p>
                    <button id="page-retry" on:click=move |_| start()>"Try again"</button>
                </section>
            }
            .into_any()
        }
    }
    }
}
