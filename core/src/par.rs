//! Data parallelism for native tools: with the `native` feature (the operator, the watchtower, the
//! benchmarks) these run on rayon's pool, on every core; without it (the browser's wasm32 build) they are
//! the plain sequential loops. The result is the same either way: every function returns its items in
//! input order, so roots and bundles do not depend on the feature or the core count.

#[cfg(feature = "native")]
use rayon::prelude::*;

/// `items.iter().map(f)` with a per-worker scratch state made by `init` (a reusable buffer), in order.
#[cfg(feature = "native")]
pub(crate) fn map_init<T, S, R>(
    items: &[T],
    init: impl Fn() -> S + Sync + Send,
    f: impl Fn(&mut S, &T) -> R + Sync + Send,
) -> Vec<R>
where
    T: Sync,
    R: Send,
{
    items.par_iter().map_init(init, f).collect()
}

/// `items.iter().map(f)` with a per-worker scratch state made by `init` (a reusable buffer), in order.
#[cfg(not(feature = "native"))]
pub(crate) fn map_init<T, S, R>(
    items: &[T],
    init: impl Fn() -> S,
    f: impl Fn(&mut S, &T) -> R,
) -> Vec<R> {
    let mut state = init();
    items.iter().map(|t| f(&mut state, t)).collect()
}

/// `out[k] = f(k)` for every `k`, in parallel with the `native` feature.
#[cfg(feature = "native")]
pub(crate) fn fill<R: Send>(out: &mut [R], f: impl Fn(usize) -> R + Sync + Send) {
    out.par_iter_mut().enumerate().for_each(|(k, o)| *o = f(k));
}

/// `out[k] = f(k)` for every `k`, in parallel with the `native` feature.
#[cfg(not(feature = "native"))]
pub(crate) fn fill<R>(out: &mut [R], f: impl Fn(usize) -> R) {
    out.iter_mut().enumerate().for_each(|(k, o)| *o = f(k));
}

/// Sorts `v` (unstable), in parallel with the `native` feature.
pub(crate) fn sort_unstable<T: Ord + Send>(v: &mut [T]) {
    #[cfg(feature = "native")]
    v.par_sort_unstable();
    #[cfg(not(feature = "native"))]
    v.sort_unstable();
}
