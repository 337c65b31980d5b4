//! The pacing `eden watch` and `eden keep` share when they run until stopped: a pass every interval, a
//! failing pass waiting twice as long each time (at most ten minutes) and said on stderr, and each report
//! line said once until it changes.

use eden_operator::OpError;
use std::collections::HashMap;
use std::hash::Hash;
use std::time::Duration;

/// The longest wait after failing passes (seconds).
const MAX_BACKOFF_SECS: u64 = 600;

/// When the next pass runs.
#[derive(Debug)]
pub(crate) struct Pace {
    interval: u64,
    wait: u64,
}

impl Pace {
    /// A pass every `interval` seconds.
    pub(crate) fn every(interval: u64) -> Pace {
        Pace {
            interval,
            wait: interval,
        }
    }

    /// A pass succeeded: back to the interval.
    pub(crate) fn ok(&mut self) {
        self.wait = self.interval;
    }

    /// A pass failed: the wait doubles (at most [`MAX_BACKOFF_SECS`]) and `who`'s error is said.
    pub(crate) fn failed(&mut self, who: &str, e: &OpError) {
        self.wait = (self.wait * 2).min(MAX_BACKOFF_SECS);
        eprintln!("{who}: {e}; next try in {} s", self.seconds());
    }

    /// The seconds until the next pass.
    pub(crate) fn seconds(&self) -> u64 {
        self.wait
    }

    /// Sleeps until the next pass.
    pub(crate) async fn sleep(&self) {
        tokio::time::sleep(Duration::from_secs(self.wait)).await;
    }
}

/// What was last said about each key, so a standing report is said once and again only when it changes.
#[derive(Debug)]
pub(crate) struct Said<K>(HashMap<K, String>);

impl<K: Hash + Eq> Said<K> {
    /// Nothing said yet.
    pub(crate) fn new() -> Self {
        Said(HashMap::new())
    }

    /// Whether `line` about `key` is news (never said, or said differently), recording it.
    pub(crate) fn news(&mut self, key: K, line: &str) -> bool {
        if self.0.get(&key).map(String::as_str) == Some(line) {
            return false;
        }
        self.0.insert(key, line.to_string());
        true
    }

    /// Prints `value` (as one JSON line when `json`, else as `line`) when `line` about `key` is news, or
    /// `always` (a sent transaction is always said).
    pub(crate) fn say(
        &mut self,
        key: K,
        value: &impl serde::Serialize,
        line: &str,
        json: bool,
        always: bool,
    ) {
        if self.news(key, line) || always {
            if json {
                println!("{}", serde_json::to_string(value).unwrap_or_default());
            } else {
                println!("{line}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_double_the_wait_up_to_ten_minutes_and_a_success_resets_it() {
        let mut p = Pace::every(60);
        let e = OpError::Rpc("down".into());
        let waits: Vec<u64> = (0..5)
            .map(|_| {
                p.failed("test", &e);
                p.seconds()
            })
            .collect();
        assert_eq!(waits, [120, 240, 480, 600, 600]);
        p.ok();
        assert_eq!(p.seconds(), 60);
    }

    #[test]
    fn a_line_is_news_once_and_again_when_it_changes() {
        let mut s = Said::new();
        assert!(s.news(1, "a"));
        assert!(!s.news(1, "a"));
        assert!(s.news(2, "a"));
        assert!(s.news(1, "b"));
        assert!(!s.news(1, "b"));
    }
}
