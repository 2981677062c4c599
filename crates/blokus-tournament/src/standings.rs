//! Standings: match points, then the event's tiebreaks in order; players still level
//! share the place.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::config::Tiebreak;
use crate::entrant::{EntrantId, PairingNumber};
use crate::event::Event;
use crate::ledger::{Ledger, Outcome};
use crate::points::Points;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Who.
    pub entrant: EntrantId,
    /// Their name.
    pub name: String,
    /// Their pairing number.
    pub number: Option<PairingNumber>,
    /// The place, 1 best; players level on everything share it.
    pub place: u32,
    /// Whether the place is shared.
    pub shared: bool,
    /// Match points.
    pub points: Points,
    /// The event's tiebreaks, in its order.
    pub tiebreaks: Vec<Points>,
    /// Games played (not counting forfeits and byes).
    pub played: u32,
    /// Byes.
    pub byes: u32,
    /// Whether the entrant has withdrawn.
    pub withdrawn: bool,
}

/// The standings of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The tiebreaks, in order.
    pub tiebreaks: Vec<Tiebreak>,
    /// The rows, best first.
    pub rows: Vec<Row>,
}

impl Standings {
    /// The standings of `event` after the results entered so far.
    pub fn new(event: &Event) -> Standings {
        let ledger = event.ledger();
        let tiebreaks = event.config().tiebreaks.clone();
        let ids: Vec<EntrantId> = event.entrants().iter().map(|e| e.id).collect();
        let mut values: Vec<Vec<Points>> = vec![vec![]; ids.len()];
        // Sort by points, then refine every group still level by each tiebreak in turn.
        let mut groups: Vec<Vec<EntrantId>> = vec![ids.clone()];
        let points = |id: EntrantId| ledger.points(id);
        groups = refine(
            groups,
            |g| g.iter().map(|&id| points(id)).collect(),
            &mut |_, _| {},
        );
        for &tb in &tiebreaks {
            groups = refine(
                groups,
                |g| g.iter().map(|&id| tiebreak(tb, id, g, &ledger)).collect(),
                &mut |id, v| values[id.index()].push(v),
            );
        }
        let mut rows = Vec::with_capacity(ids.len());
        for group in groups {
            let place = rows.len() as u32 + 1;
            let mut group = group;
            group.sort_by_key(|id| event.entrants()[id.index()].number);
            for id in &group {
                let e = &event.entrants()[id.index()];
                let record = ledger.record(*id);
                rows.push(Row {
                    entrant: *id,
                    name: e.name.clone(),
                    number: e.number,
                    place,
                    shared: group.len() > 1,
                    points: record.points,
                    tiebreaks: values[id.index()].clone(),
                    played: record.games.iter().filter(|g| g.was_played()).count() as u32,
                    byes: record.byes.len() as u32,
                    withdrawn: e.withdrawn_from.is_some(),
                });
            }
        }
        Standings { tiebreaks, rows }
    }

    /// An entrant's 0-based position in the standings.
    pub fn position(&self, id: EntrantId) -> usize {
        self.rows
            .iter()
            .position(|r| r.entrant == id)
            .unwrap_or(usize::MAX)
    }

    /// The row of an entrant.
    pub fn row(&self, id: EntrantId) -> Option<&Row> {
        self.rows.iter().find(|r| r.entrant == id)
    }
}

/// Splits each group by a value computed for the group (highest first), reporting each
/// player's value.
fn refine(
    groups: Vec<Vec<EntrantId>>,
    value: impl Fn(&[EntrantId]) -> Vec<Points>,
    report: &mut dyn FnMut(EntrantId, Points),
) -> Vec<Vec<EntrantId>> {
    let mut out = Vec::new();
    for group in groups {
        let vals = value(&group);
        let mut scored: Vec<(Points, EntrantId)> = vals.into_iter().zip(group).collect();
        for &(v, id) in &scored {
            report(id, v);
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        for chunk in scored.chunk_by(|a, b| a.0 == b.0) {
            out.push(chunk.iter().map(|&(_, id)| id).collect());
        }
    }
    out
}

/// A tiebreak's value for `id` among the players `group` still level with them.
fn tiebreak(tb: Tiebreak, id: EntrantId, group: &[EntrantId], ledger: &Ledger) -> Points {
    let games = || ledger.record(id).games.iter().filter(|g| g.was_played());
    let opponents_points = || {
        games()
            .flat_map(|g| g.opponents().map(|o| ledger.points(o)).collect::<Vec<_>>())
            .collect::<Vec<Points>>()
    };
    match tb {
        Tiebreak::GameScore => Points::whole(
            games()
                .map(|g| match g.outcome {
                    Outcome::Played { score, .. } => i64::from(score),
                    _ => 0,
                })
                .sum(),
        ),
        Tiebreak::Buchholz => opponents_points().into_iter().sum(),
        Tiebreak::MedianBuchholz => {
            let mut v = opponents_points();
            v.sort();
            if v.len() >= 3 {
                v[1..v.len() - 1].iter().copied().sum()
            } else {
                v.into_iter().sum()
            }
        }
        Tiebreak::Wins => Points::whole(
            games()
                .filter(|g| {
                    matches!(
                        g.outcome,
                        Outcome::Played {
                            place: 1,
                            shared: 1,
                            ..
                        }
                    )
                })
                .count() as i64,
        ),
        Tiebreak::HeadToHead => games()
            .map(|g| {
                let Outcome::Played {
                    place, ref places, ..
                } = g.outcome
                else {
                    return Points::ZERO;
                };
                g.seats
                    .iter()
                    .zip(places)
                    .filter(|(o, _)| **o != id && group.contains(o))
                    .map(|(_, &p)| match p.cmp(&place) {
                        std::cmp::Ordering::Greater => Points::whole(1),
                        std::cmp::Ordering::Equal => Points::fraction(1, 2),
                        std::cmp::Ordering::Less => Points::ZERO,
                    })
                    .sum()
            })
            .sum(),
    }
}

impl Standings {
    /// A text table: place, number, name, points, tiebreaks, games, then `extra` columns
    /// (a heading and one value per row, in row order), such as Elo estimates.
    pub fn render(&self, extra: &[(&str, Vec<String>)]) -> String {
        use std::fmt::Write;
        let label = |r: &Row| {
            if r.withdrawn {
                format!("{} (withdrawn)", r.name)
            } else {
                r.name.clone()
            }
        };
        let width = self
            .rows
            .iter()
            .map(|r| label(r).chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let mut out = format!(
            "{:>5}  {:>3}  {:<width$}  {:>6}",
            "Place", "No", "Name", "Points"
        );
        for tb in &self.tiebreaks {
            let _ = write!(out, "  {:>6}", tb.heading());
        }
        let _ = write!(out, "  {:>5}", "Games");
        for (heading, _) in extra {
            let _ = write!(out, "  {heading:>6}");
        }
        out.push('\n');
        let mut last_place = 0;
        for (i, r) in self.rows.iter().enumerate() {
            let place = if r.place == last_place {
                String::new()
            } else if r.shared {
                format!("{}=", r.place)
            } else {
                r.place.to_string()
            };
            last_place = r.place;
            let number = r.number.map_or(String::from("-"), |n| n.to_string());
            let _ = write!(
                out,
                "{place:>5}  {number:>3}  {:<width$}  {:>6}",
                label(r),
                r.points.to_string()
            );
            for v in &r.tiebreaks {
                let _ = write!(out, "  {:>6}", v.to_string());
            }
            let _ = write!(out, "  {:>5}", r.played);
            for (_, values) in extra {
                let _ = write!(out, "  {:>6}", values.get(i).map_or("", String::as_str));
            }
            out.push('\n');
        }
        out
    }
}

/// The text table of [`Standings::render`] without extra columns.
impl fmt::Display for Standings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&[]))
    }
}
