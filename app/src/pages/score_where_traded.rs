//! A project's published score where people trade (issue 42 item 4): on the launch list, the latest
//! final score with its move since the epoch before; on the token page and the Score page, its history
//! over the latest final epochs, each dated. Every value shown is proven against the chain's final root
//! first ([`crate::chain::scores`]); each links to the Score page's full verification of that project.

use crate::chain::scores::{load_history, LatestScore, ScorePoint, Trend};
use crate::chain::world::World;
use crate::fmt;
use alloy_primitives::{Address, U256};
use leptos::prelude::*;

/// How many final epochs the history shows.
pub const HISTORY_EPOCHS: usize = 8;

/// The Score page's address for verifying `project` (it opens with that project picked and checks it).
pub fn verify_href(project: Address) -> String {
    format!("/score?project={project}")
}

/// A trend in words and an arrow: `"▲ 1.2"`, `"▼ 0.35"`, `"="`.
pub fn trend_words(t: Trend) -> (&'static str, String) {
    match t {
        Trend::Up(d) => ("up", format!("▲ {}", fmt::units(d, 18, 3))),
        Trend::Down(d) => ("down", format!("▼ {}", fmt::units(d, 18, 3))),
        Trend::Flat => ("flat", "=".to_string()),
    }
}

/// The launch list's score of one project: latest final score, trend, date, and the verification link.
#[component]
pub fn ScoreChip(project: Address, score: Option<LatestScore>) -> impl IntoView {
    match score {
        None => view! { <span class="launch-score none muted">"no score yet"</span> }.into_any(),
        Some(s) => {
            let trend = s.trend().map(trend_words);
            let since = s
                .previous
                .map(|p| format!("since {}", fmt::day_utc(p.proposed_at)));
            view! {
                <a class="launch-score" href=verify_href(project) data-score=s.latest.score_wad.to_string()
                    title=format!("Published score in final epoch {} ({}), proven against its final root; open to verify it in your browser", s.latest.epoch, fmt::date_utc(s.latest.proposed_at))>
                    "Score "<strong>{fmt::points(s.latest.score_wad)}</strong>
                    {trend.map(|(class, w)| view! { " "<span class=format!("trend {class}") title=since.clone()>{w}</span> })}
                    <span class="muted">{format!(" · {}", fmt::day_utc(s.latest.proposed_at))}</span>
                </a>
            }
            .into_any()
        }
    }
}

/// Points of a history as a small line (display only: floats after the exact values).
fn spark(points: &[ScorePoint]) -> Option<String> {
    if points.len() < 2 {
        return None;
    }
    let to_f = |v: U256| fmt::units_exact(v, 18).parse::<f64>().unwrap_or(0.0);
    let n = (points.len() - 1) as f64;
    Some(
        points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let x = i as f64 / n * 100.0;
                let y = 30.0 - to_f(p.score_wad) / 100.0 * 30.0;
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `project`'s published score over the latest final epochs: the latest with its trend, a line,
/// and one row per epoch with its date.
#[component]
pub fn ScoreHistory(world: World, project: Address) -> impl IntoView {
    let data = LocalResource::new(move || {
        let w = world.clone();
        async move { load_history(w, project, HISTORY_EPOCHS).await?.await }
    });
    view! {
        <div class="score-history" id="score-history">
            {move || match data.get() {
                None => view! { <p class="muted">"Reading its published scores…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="bad">{format!("Its scores could not be shown: {e}")}</p> }.into_any(),
                Some(Ok(points)) if points.is_empty() => view! {
                    <p class="muted" id="score-none">"No published score yet: this project has no leaf in a final epoch. "<a href=verify_href(project)>"Check it on the Score page"</a></p>
                }.into_any(),
                Some(Ok(points)) => {
                    let last = *points.last().expect("not empty");
                    let latest = LatestScore { latest: last, previous: points.len().checked_sub(2).map(|i| points[i]) };
                    let trend = latest.trend().map(trend_words);
                    let line = spark(&points);
                    view! {
                        <p class="score-latest">
                            "Score "<strong id="score-latest" data-score=last.score_wad.to_string()>{fmt::points(last.score_wad)}</strong>
                            {trend.map(|(class, w)| view! { " "<span class=format!("trend {class}")>{w}</span> })}
                            <span class="muted">{format!(" · final epoch {} of {} (proven against its final root here)", last.epoch, fmt::day_utc(last.proposed_at))}</span>
                            " · "<a href=verify_href(project) id="verify-score-link">"Verify it in your browser"</a>
                        </p>
                        {line.map(|l| view! {
                            <svg class="chart score-line" viewBox="0 0 100 30" preserveAspectRatio="none" role="img" aria-label="Published score in each final epoch, 0 to 100">
                                <polyline points=l fill="none" stroke="currentColor" stroke-width="1.5" vector-effect="non-scaling-stroke" />
                            </svg>
                        })}
                        <details class="score-epochs">
                            <summary>{format!("Its score in the last {} final epochs", points.len())}</summary>
                            <div class="table-wrap"><table>
                                <thead><tr><th>"Date"</th><th>"Epoch"</th><th>"Score"</th></tr></thead>
                                <tbody>
                                    {points.into_iter().rev().map(|p| view! {
                                        <tr data-epoch=p.epoch><td>{fmt::day_utc(p.proposed_at)}</td><td>{p.epoch}</td><td>{fmt::points(p.score_wad)}</td></tr>
                                    }).collect_view()}
                                </tbody>
                            </table></div>
                        </details>
                    }.into_any()
                }
            }}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trends_read_as_arrows() {
        let e17 = U256::from(10u64.pow(17));
        assert_eq!(
            trend_words(Trend::Up(U256::from(12u8) * e17)),
            ("up", "▲ 1.2".to_string())
        );
        assert_eq!(trend_words(Trend::Down(e17)), ("down", "▼ 0.1".to_string()));
        assert_eq!(trend_words(Trend::Flat).1, "=");
    }

    #[test]
    fn a_history_draws_from_left_to_right_on_0_to_100() {
        let p = |e: u64, v: u64| ScorePoint {
            epoch: e,
            proposed_at: 0,
            score_wad: U256::from(v) * U256::from(10u64.pow(18)),
        };
        assert_eq!(spark(&[p(1, 50)]), None);
        assert_eq!(spark(&[p(1, 0), p(2, 100)]).unwrap(), "0.0,30.0 100.0,0.0");
    }
}
