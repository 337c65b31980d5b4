//! Published scores where people trade (issue 42 item 4): each project's published score (its one
//! score leaf, C27) in the latest final epochs, dated by when each epoch was proposed, and every value
//! proven against the final root the chain holds before it is shown.
//!
//! - [`final_epochs`]: the registry's final epochs, latest first, with their final roots and dates
//!   (from state: a batch for the latest final epoch, then one per 32 epochs below it).
//! - [`board`]: every project's score in the latest two final epochs (the launch list's score and
//!   trend): the two bundles, each rebuilt to its final root ([`World::fetch_bundle_with_root`]).
//! - [`history`]: one project's scores over the latest final epochs (the token page): its light pack
//!   in each ([`eden_core::check::ProjectPack::proven_published`]), kilobytes per epoch.

use crate::chain::rpc::RpcError;
use crate::chain::world::{World, WorldError};
use crate::split_point::on_demand;
use alloy_primitives::{Address, U256};
use futures::future::LocalBoxFuture;
use std::collections::BTreeMap;

pub use eden_chain::epochs::FinalEpoch;

/// A project's published score in one final epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScorePoint {
    pub epoch: u64,
    pub proposed_at: u64,
    /// Points (0–100) as a WAD.
    pub score_wad: U256,
}

/// Latest and previous published score of one project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LatestScore {
    pub latest: ScorePoint,
    /// Its score in the final epoch before, when it had one there.
    pub previous: Option<ScorePoint>,
}

impl LatestScore {
    /// The change since the previous final epoch (points as a WAD, signed), when there was one.
    pub fn trend(&self) -> Option<Trend> {
        let p = self.previous?;
        Some(match self.latest.score_wad.cmp(&p.score_wad) {
            std::cmp::Ordering::Greater => Trend::Up(self.latest.score_wad - p.score_wad),
            std::cmp::Ordering::Less => Trend::Down(p.score_wad - self.latest.score_wad),
            std::cmp::Ordering::Equal => Trend::Flat,
        })
    }
}

/// A score's move since the previous final epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trend {
    Up(U256),
    Down(U256),
    Flat,
}

/// Why scores could not be shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScoresError {
    /// The registry could not be read.
    #[error("the epochs could not be read: {0}")]
    Chain(#[from] RpcError),
    /// A bundle could not be fetched or does not build its final root.
    #[error("epoch {epoch}'s publication: {source}")]
    Publication {
        epoch: u64,
        #[source]
        source: WorldError,
    },
    /// A published score leaf whose proof does not reach the epoch's final root.
    #[error("epoch {epoch}'s published score of {project} does not prove against its final root")]
    Unproven { epoch: u64, project: Address },
    /// The code that reads them could not be downloaded ([`load_board`], [`load_history`]).
    #[error("the code that reads them could not be downloaded ({0}); check the connection and try again")]
    NotLoaded(String),
}

impl From<leptos::wasm_split::SplitLoaderError> for ScoresError {
    fn from(e: leptos::wasm_split::SplitLoaderError) -> Self {
        Self::NotLoaded(e.to_string())
    }
}

/// A read whose code comes with it.
pub type Loaded<T> = LocalBoxFuture<'static, Result<T, ScoresError>>;

on_demand! {
    /// [`board`] in a module of its own (D11, issue 39), fetched when the launch list asks for its score column
    /// once its rows are in: the bundles' parsing and Merkle building are not in the list's first download.
    ///
    /// # Errors
    /// [`ScoresError::NotLoaded`] when the module cannot be downloaded.
    board: pub fn load_board(w: World) -> Result<Loaded<Board>, ScoresError> {
        Ok(Box::pin(async move { board(&w).await }))
    }
}

on_demand! {
    /// [`history`] in a module of its own (D11, issue 39), fetched when the token page or the Score page shows a
    /// score history: the light packs' parsing is not in the token page's first download.
    ///
    /// # Errors
    /// [`ScoresError::NotLoaded`] when the module cannot be downloaded.
    history: pub fn load_history(
        w: World,
        project: Address,
        last: usize,
    ) -> Result<Loaded<Vec<ScorePoint>>, ScoresError> {
        Ok(Box::pin(async move { history(&w, project, last).await }))
    }
}

/// The registry's final epochs, latest first, at most `last` of them, from state
/// ([`eden_chain::epochs::final_epochs`]: no log scan).
///
/// # Errors
/// When a batch cannot be read.
pub async fn final_epochs(w: &World, last: usize) -> Result<Vec<FinalEpoch>, RpcError> {
    Ok(eden_chain::epochs::final_epochs(&w.rpc(), w.contracts.epoch_registry, last).await?)
}

/// Every project's latest published score, by project: the launch list's score column.
pub type Board = BTreeMap<Address, LatestScore>;

/// Every project's published score in the latest final epoch, with its score in the one before.
///
/// # Errors
/// When the epochs cannot be read, or a bundle is missing or does not build its final root.
pub async fn board(w: &World) -> Result<Board, ScoresError> {
    let epochs = final_epochs(w, 2).await?;
    let mut out = BTreeMap::new();
    let Some(latest) = epochs.first() else {
        return Ok(out);
    };
    let (now, before) = futures::join!(w.fetch_bundle_with_root(latest.root), async {
        match epochs.get(1) {
            Some(p) => Some(w.fetch_bundle_with_root(p.root).await),
            None => None,
        }
    });
    let now = now.map_err(|source| ScoresError::Publication {
        epoch: latest.epoch,
        source,
    })?;
    let before: BTreeMap<Address, U256> = match (before, epochs.get(1)) {
        (Some(b), Some(p)) => b
            .map_err(|source| ScoresError::Publication {
                epoch: p.epoch,
                source,
            })?
            .score_leaves()
            .into_iter()
            .collect(),
        _ => BTreeMap::new(),
    };
    for (project, score_wad) in now.score_leaves() {
        let previous = epochs.get(1).and_then(|p| {
            before.get(&project).map(|&s| ScorePoint {
                epoch: p.epoch,
                proposed_at: p.proposed_at,
                score_wad: s,
            })
        });
        out.insert(
            project,
            LatestScore {
                latest: ScorePoint {
                    epoch: latest.epoch,
                    proposed_at: latest.proposed_at,
                    score_wad,
                },
                previous,
            },
        );
    }
    Ok(out)
}

/// `project`'s published score in each of the latest `last` final epochs where it has one, oldest
/// first, each proven against that epoch's final root from its light pack. An epoch whose pack is
/// not published (no score there) is left out; one whose pack does not prove is an error.
///
/// # Errors
/// When the epochs cannot be read, or a published pack does not prove against its final root.
pub async fn history(
    w: &World,
    project: Address,
    last: usize,
) -> Result<Vec<ScorePoint>, ScoresError> {
    let epochs = final_epochs(w, last).await?;
    let packs =
        futures::future::join_all(epochs.iter().map(|e| w.fetch_light(e.root, project))).await;
    let mut out = Vec::new();
    for (e, pack) in epochs.iter().zip(packs) {
        match pack {
            // Not published: no score for this project in that epoch.
            Err(WorldError::Fetch(_)) => continue,
            Err(source) => {
                return Err(ScoresError::Publication {
                    epoch: e.epoch,
                    source,
                })
            }
            Ok(p) => match p.pack.proven_published(e.root) {
                Some(score_wad) => out.push(ScorePoint {
                    epoch: e.epoch,
                    proposed_at: e.proposed_at,
                    score_wad,
                }),
                None => {
                    return Err(ScoresError::Unproven {
                        epoch: e.epoch,
                        project,
                    })
                }
            },
        }
    }
    out.reverse();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(epoch: u64, points: u64) -> ScorePoint {
        ScorePoint {
            epoch,
            proposed_at: 0,
            score_wad: U256::from(points) * U256::from(10u64.pow(18)),
        }
    }

    #[test]
    fn the_trend_is_the_change_since_the_previous_final_epoch() {
        let e18 = U256::from(10u64.pow(18));
        let up = LatestScore {
            latest: pt(2, 50),
            previous: Some(pt(1, 47)),
        };
        assert_eq!(up.trend(), Some(Trend::Up(U256::from(3u8) * e18)));
        let down = LatestScore {
            latest: pt(2, 40),
            previous: Some(pt(1, 47)),
        };
        assert_eq!(down.trend(), Some(Trend::Down(U256::from(7u8) * e18)));
        let flat = LatestScore {
            latest: pt(2, 40),
            previous: Some(pt(1, 40)),
        };
        assert_eq!(flat.trend(), Some(Trend::Flat));
        let first = LatestScore {
            latest: pt(2, 40),
            previous: None,
        };
        assert_eq!(first.trend(), None);
    }
}
