//! The epoch registry's slot states and limits (C7), as `EpochRegistry` defines them: one place for every
//! reader (the app, the watchtower, the keeper).

/// `EpochRegistry.CHALLENGE_WINDOW`: a proposal is pending this long (72 h, C7).
pub const CHALLENGE_WINDOW_SECS: u64 = 72 * 3600;
/// `EpochRegistry.MAX_CHALLENGES`: challenges one proposal may have (C7).
pub const MAX_CHALLENGES: u8 = 2;
/// `EpochRegistry.ADJUDICATION_TIMEOUT`: a challenge not ruled on within this long may be lapsed by anyone
/// (7 days, C7 decided).
pub const ADJUDICATION_TIMEOUT_SECS: u64 = 7 * 24 * 3600;

/// An epoch slot's status on chain (`EpochRegistry.Status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EpochStatus {
    /// Not proposed yet (0, or an unknown code).
    NotProposed,
    /// Proposed, in its challenge window.
    Pending,
    /// Challenged, awaiting the adjudicator.
    Challenged,
    /// Final.
    Final,
}

impl EpochStatus {
    /// From the contract's `uint8` (`None = 0, Pending = 1, Challenged = 2, Final = 3`).
    pub fn from_code(s: u8) -> Self {
        match s {
            1 => Self::Pending,
            2 => Self::Challenged,
            3 => Self::Final,
            _ => Self::NotProposed,
        }
    }

    /// The contract's `uint8`.
    pub fn code(self) -> u8 {
        match self {
            Self::NotProposed => 0,
            Self::Pending => 1,
            Self::Challenged => 2,
            Self::Final => 3,
        }
    }

    /// In words.
    pub fn name(self) -> &'static str {
        match self {
            Self::NotProposed => "not proposed",
            Self::Pending => "pending",
            Self::Challenged => "challenged",
            Self::Final => "final",
        }
    }
}

/// What anyone may do with an epoch slot at chain time `now` (C7), as `EpochRegistry` allows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EpochAction {
    /// Challenge a pending root: strictly before its deadline, at most [`MAX_CHALLENGES`] times.
    Challenge,
    /// Finalize a pending root: from its deadline on.
    Finalize,
    /// Uphold or reject a challenged root: the adjudicator's only.
    Rule,
}

/// A slot as the registry's `status(epoch)` and `challengeCount(epoch)` return it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EpochSlot {
    /// Its status.
    pub status: EpochStatus,
    /// The end of its challenge window (unix seconds).
    pub deadline: u64,
    /// Challenges made on its current proposal.
    pub challenges: u8,
}

impl EpochSlot {
    /// C7: a pending root is finalizable once chain time reaches its deadline (`finalize` reverts
    /// `WindowOpen` before).
    pub fn finalizable(&self, now: u64) -> bool {
        self.status == EpochStatus::Pending && now >= self.deadline
    }

    /// C7: a pending root is in its challenge window strictly before its deadline (what a watchtower
    /// checks; whether a challenge may still be made is [`EpochSlot::challengeable`]).
    pub fn in_window(&self, now: u64) -> bool {
        self.status == EpochStatus::Pending && now < self.deadline
    }

    /// C7: a pending root is challengeable in its window, while it has had fewer than
    /// [`MAX_CHALLENGES`] challenges.
    pub fn challengeable(&self, now: u64) -> bool {
        self.in_window(now) && self.challenges < MAX_CHALLENGES
    }

    /// The actions open at chain time `now` to an account that is (`adjudicator`) or is not the
    /// registry's adjudicator.
    pub fn actions(&self, now: u64, adjudicator: bool) -> Vec<EpochAction> {
        if self.challengeable(now) {
            vec![EpochAction::Challenge]
        } else if self.finalizable(now) {
            vec![EpochAction::Finalize]
        } else if self.status == EpochStatus::Challenged && adjudicator {
            vec![EpochAction::Rule]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_root_is_challengeable_before_its_deadline_and_finalizable_from_it() {
        let slot = |status, challenges| EpochSlot {
            status,
            deadline: 1_000,
            challenges,
        };
        let p = slot(EpochStatus::Pending, 0);
        assert_eq!(p.actions(999, false), [EpochAction::Challenge]);
        assert_eq!(p.actions(1_000, false), [EpochAction::Finalize]);
        assert!(!p.finalizable(999) && p.finalizable(1_000));
        // Challenged twice: no third challenge, and not finalizable before the deadline either.
        let twice = slot(EpochStatus::Pending, MAX_CHALLENGES);
        assert!(twice.actions(999, true).is_empty());
        let c = slot(EpochStatus::Challenged, 1);
        assert_eq!(c.actions(5_000, true), [EpochAction::Rule]);
        assert!(c.actions(5_000, false).is_empty() && !c.finalizable(5_000));
        assert!(slot(EpochStatus::Final, 0).actions(5_000, true).is_empty());
    }

    #[test]
    fn codes_round_trip_and_unknown_codes_read_as_not_proposed() {
        for s in [
            EpochStatus::NotProposed,
            EpochStatus::Pending,
            EpochStatus::Challenged,
            EpochStatus::Final,
        ] {
            assert_eq!(EpochStatus::from_code(s.code()), s);
        }
        assert_eq!(EpochStatus::from_code(4), EpochStatus::NotProposed);
        assert_eq!(EpochStatus::from_code(255), EpochStatus::NotProposed);
    }
}
