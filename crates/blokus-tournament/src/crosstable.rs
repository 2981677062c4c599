//! The crosstable: each entrant's round-by-round record, in standings order.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::entrant::{EntrantId, PairingNumber};
use crate::event::Event;
use crate::ledger::Outcome;
use crate::points::Points;

/// One entrant's round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// Not paired (not entered yet, or withdrawn).
    Absent,
    /// A bye.
    Bye {
        /// Its points.
        points: Points,
    },
    /// A table without its result yet.
    Pending {
        /// The table.
        table: u32,
        /// The opponents' pairing numbers.
        opponents: Vec<PairingNumber>,
    },
    /// A game played.
    Played {
        /// The table.
        table: u32,
        /// The seat (0 moves first).
        seat: usize,
        /// Seats at the table.
        seats: usize,
        /// The place, 1 best.
        place: u32,
        /// Whether others share the place.
        shared: bool,
        /// The opponents' pairing numbers.
        opponents: Vec<PairingNumber>,
        /// Match points scored.
        points: Points,
    },
    /// A win by forfeit.
    ForfeitWin {
        /// The table.
        table: u32,
        /// The opponents' pairing numbers.
        opponents: Vec<PairingNumber>,
    },
    /// A loss by forfeit (did not show up).
    ForfeitLoss {
        /// The table.
        table: u32,
        /// The opponents' pairing numbers.
        opponents: Vec<PairingNumber>,
    },
}

/// One entrant's line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    /// Who.
    pub entrant: EntrantId,
    /// Their name.
    pub name: String,
    /// Their pairing number.
    pub number: Option<PairingNumber>,
    /// Their place.
    pub place: u32,
    /// Their match points.
    pub points: Points,
    /// Round by round.
    pub rounds: Vec<Entry>,
    /// Round by round as short cells ([`Entry::cell`]), for display.
    #[serde(default)]
    pub cells: Vec<String>,
}

/// The crosstable of an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crosstable {
    /// Lines in standings order.
    pub lines: Vec<Line>,
}

impl Crosstable {
    /// The crosstable of `event` so far.
    pub fn new(event: &Event) -> Crosstable {
        let ledger = event.ledger();
        let standings = event.standings();
        let number = |id: EntrantId| event.entrants()[id.index()].number;
        let lines = standings
            .rows
            .iter()
            .map(|row| {
                let record = ledger.record(row.entrant);
                let rounds: Vec<Entry> = event
                    .rounds()
                    .iter()
                    .map(|round| {
                        if let Some(&(_, points)) = record.byes.iter().find(|b| b.0 == round.number)
                        {
                            return Entry::Bye { points };
                        }
                        let Some(g) = record.games.iter().find(|g| g.round == round.number) else {
                            return Entry::Absent;
                        };
                        let opponents = g.opponents().filter_map(number).collect();
                        match g.outcome {
                            Outcome::Pending => Entry::Pending {
                                table: g.table,
                                opponents,
                            },
                            Outcome::ForfeitWin => Entry::ForfeitWin {
                                table: g.table,
                                opponents,
                            },
                            Outcome::ForfeitLoss => Entry::ForfeitLoss {
                                table: g.table,
                                opponents,
                            },
                            Outcome::Played { place, shared, .. } => Entry::Played {
                                table: g.table,
                                seat: g.seat,
                                seats: g.seats.len(),
                                place,
                                shared: shared > 1,
                                opponents,
                                points: g.points,
                            },
                        }
                    })
                    .collect();
                let cells = rounds.iter().map(Entry::cell).collect();
                Line {
                    entrant: row.entrant,
                    name: row.name.clone(),
                    number: row.number,
                    place: row.place,
                    points: row.points,
                    rounds,
                    cells,
                }
            })
            .collect();
        Crosstable { lines }
    }
}

impl Entry {
    /// A short cell: at 2 seats the opponent's number, `f`/`s` for moving first or
    /// second, and `+ = -` (`7f+`); at larger tables the table, place and seats (`t2 1/4`);
    /// `+F`/`-F` forfeits, `bye`, `?` pending, `.` not paired.
    pub fn cell(&self) -> String {
        let join = |o: &[PairingNumber]| {
            o.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        match self {
            Entry::Absent => ".".into(),
            Entry::Bye { .. } => "bye".into(),
            Entry::Pending { opponents, .. } => format!("{}?", join(opponents)),
            Entry::ForfeitWin { opponents, .. } => format!("{}+F", join(opponents)),
            Entry::ForfeitLoss { opponents, .. } => format!("{}-F", join(opponents)),
            Entry::Played {
                table,
                seat,
                seats,
                place,
                shared,
                opponents,
                ..
            } => {
                if *seats == 2 {
                    let sign = match (place, shared) {
                        (_, true) => "=",
                        (1, false) => "+",
                        _ => "-",
                    };
                    format!(
                        "{}{}{sign}",
                        join(opponents),
                        if *seat == 0 { "f" } else { "s" }
                    )
                } else {
                    format!("t{table} {place}/{seats}")
                }
            }
        }
    }
}

impl fmt::Display for Crosstable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .lines
            .iter()
            .map(|l| l.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        let rounds = self.lines.first().map_or(0, |l| l.rounds.len());
        write!(f, "{:>5}  {:>3}  {:<width$}", "Place", "No", "Name")?;
        for r in 1..=rounds {
            write!(f, "  {:>8}", format!("R{r}"))?;
        }
        writeln!(f, "  {:>6}", "Points")?;
        for l in &self.lines {
            let number = l.number.map_or(String::from("-"), |n| n.to_string());
            write!(f, "{:>5}  {number:>3}  {:<width$}", l.place, l.name)?;
            for e in &l.rounds {
                write!(f, "  {:>8}", e.cell())?;
            }
            writeln!(f, "  {:>6}", l.points.to_string())?;
        }
        Ok(())
    }
}
