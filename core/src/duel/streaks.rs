//! Win streaks (B6, pinned): a side's streak counts rounds *settled with that side as
//! winner*; rounds with no winner do not break it; only the other side winning ends it.
//! Three wins in a row are three settled rounds with a winner, not twelve hours ahead.

use super::Winner;

/// Current and best streaks of both sides.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "js", derive(tsify::Tsify))]
pub struct Streaks {
    /// A's current streak.
    #[serde(with = "crate::serde_dec::int")]
    pub a: u32,
    /// B's current streak.
    #[serde(with = "crate::serde_dec::int")]
    pub b: u32,
    /// A's longest streak.
    #[serde(with = "crate::serde_dec::int")]
    pub best_a: u32,
    /// B's longest streak.
    #[serde(with = "crate::serde_dec::int")]
    pub best_b: u32,
}

impl Streaks {
    /// The streaks after a round settled with `winner` (saturating).
    #[must_use]
    pub fn record(self, winner: Winner) -> Self {
        match winner {
            Winner::A => {
                let a = self.a.saturating_add(1);
                Self {
                    a,
                    b: 0,
                    best_a: self.best_a.max(a),
                    best_b: self.best_b,
                }
            }
            Winner::B => {
                let b = self.b.saturating_add(1);
                Self {
                    a: 0,
                    b,
                    best_a: self.best_a,
                    best_b: self.best_b.max(b),
                }
            }
            Winner::None => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(ws: &[Winner]) -> Streaks {
        ws.iter().fold(Streaks::default(), |s, w| s.record(*w))
    }

    #[test]
    fn three_settled_wins_in_a_row() {
        let s = run(&[Winner::A, Winner::A, Winner::A]);
        assert_eq!((s.a, s.b, s.best_a), (3, 0, 3));
    }

    #[test]
    fn no_winner_rounds_do_not_break_a_streak() {
        let s = run(&[Winner::A, Winner::None, Winner::None, Winner::A]);
        assert_eq!(s.a, 2);
        // …and do not count either.
        assert_eq!(run(&[Winner::None, Winner::None]).a, 0);
    }

    #[test]
    fn only_the_other_side_winning_ends_it() {
        let s = run(&[Winner::A, Winner::A, Winner::B]);
        assert_eq!((s.a, s.b, s.best_a, s.best_b), (0, 1, 2, 1));
        let s = run(&[Winner::A, Winner::A, Winner::B, Winner::A]);
        assert_eq!((s.a, s.best_a), (1, 2));
    }

    #[test]
    fn saturates() {
        let s = Streaks {
            a: u32::MAX,
            b: 0,
            best_a: u32::MAX,
            best_b: 0,
        }
        .record(Winner::A);
        assert_eq!(s.a, u32::MAX);
    }
}
