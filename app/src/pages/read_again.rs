//! A page's live reads, read again a while after each answer (D11, "What a page waits for").
//!
//! The wait starts when the read answers, success or failure, not on a clock the app shares: a page whose first
//! read took 4.9 s (a phone on a slow network) does not read everything again 0.1 s later, two reads of the same
//! value never overlap, and a read started by something else (a confirmed transaction) restarts the wait.

use leptos::prelude::*;
use std::time::Duration;

/// How long a live read waits after its answer before it reads again.
pub const READ_AGAIN_AFTER: Duration = Duration::from_secs(5);

/// A signal a live read tracks (`ReadAgain::track`), changed a while after that read's last answer
/// (`ReadAgain::after`). Made before the read, which tracks it; told which read to follow once that exists.
#[derive(Clone, Copy)]
pub struct ReadAgain {
    again: RwSignal<u64>,
    wait: Duration,
}

impl ReadAgain {
    /// Reads again [`READ_AGAIN_AFTER`] after each answer.
    pub fn new() -> Self {
        Self::waiting(READ_AGAIN_AFTER)
    }

    /// Reads again `wait` after each answer.
    pub fn waiting(wait: Duration) -> Self {
        Self {
            again: RwSignal::new(0),
            wait,
        }
    }

    /// Subscribes the running read to this signal.
    pub fn track(self) {
        self.again.track();
    }

    /// Starts the wait each time `read` changes to an answer; a change while it reads (a newer read started by
    /// something else) cancels the wait, and so does leaving the page.
    pub fn after<T: 'static>(self, read: LocalResource<T>) {
        let timer = StoredValue::new(None::<TimeoutHandle>);
        let cancel = move || {
            if let Some(t) = timer.try_get_value().flatten() {
                t.clear();
            }
        };
        Effect::new(move |_| {
            let answered = read.with(Option::is_some);
            cancel();
            let next = answered
                .then(|| {
                    set_timeout_with_handle(move || self.again.update(|n| *n += 1), self.wait).ok()
                })
                .flatten();
            timer.set_value(next);
        });
        on_cleanup(cancel);
    }
}

impl Default for ReadAgain {
    fn default() -> Self {
        Self::new()
    }
}
