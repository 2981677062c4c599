//! Every entrant's games, byes and match points, read once from the rounds: the one source
//! the pairing systems, the seat rotation, the standings and the crosstable all use.

use std::collections::HashMap;

use crate::config::PlacePoints;
use crate::entrant::EntrantId;
use crate::points::Points;
use crate::result::TableResult;
use crate::round::Round;

/// How one table went for one entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No result yet.
    Pending,
    /// The game was played.
    Played {
        /// The entrant's game score.
        score: i32,
        /// The entrant's place, 1 best.
        place: u32,
        /// How many players (the entrant included) share that place.
        shared: usize,
        /// Every seat's place, in seat order.
        places: Vec<u32>,
    },
    /// The entrant was there and the game was not played: a win by forfeit.
    ForfeitWin,
    /// The entrant did not show up.
    ForfeitLoss,
}

/// One table an entrant sat at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The round.
    pub round: u32,
    /// The table number.
    pub table: u32,
    /// The entrant's seat (0 moves first).
    pub seat: usize,
    /// Everyone at the table, in seat order.
    pub seats: Vec<EntrantId>,
    /// How it went.
    pub outcome: Outcome,
    /// The match points it scored.
    pub points: Points,
}

impl Game {
    /// The other players at the table.
    pub fn opponents(&self) -> impl Iterator<Item = EntrantId> + '_ {
        let me = self.seats[self.seat];
        self.seats.iter().copied().filter(move |&o| o != me)
    }

    /// Whether a game was actually played (not pending, not a forfeit).
    pub fn was_played(&self) -> bool {
        matches!(self.outcome, Outcome::Played { .. })
    }
}

/// One entrant's record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tables sat at, in round order.
    pub games: Vec<Game>,
    /// Rounds with a bye, and what each scored.
    pub byes: Vec<(u32, Points)>,
    /// Match points so far (games and byes).
    pub points: Points,
}

impl Record {
    /// How many times the entrant had each seat (index 0 moves first) in games played.
    pub fn seat_counts(&self) -> [u32; 4] {
        let mut c = [0; 4];
        for g in self.games.iter().filter(|g| g.was_played() && g.seat < 4) {
            c[g.seat] += 1;
        }
        c
    }

    /// The seat of the last game played.
    pub fn last_seat(&self) -> Option<usize> {
        self.games
            .iter()
            .rev()
            .find(|g| g.was_played())
            .map(|g| g.seat)
    }
}

/// Every entrant's record.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    records: Vec<Record>,
    met: HashMap<(EntrantId, EntrantId), u32>,
}

impl Ledger {
    /// Reads the rounds of an event of `entrants` entrants.
    pub fn new(entrants: usize, rounds: &[Round], place_points: &PlacePoints) -> Ledger {
        let mut ledger = Ledger {
            records: vec![Record::default(); entrants],
            met: HashMap::new(),
        };
        for round in rounds {
            for bye in &round.byes {
                let r = &mut ledger.records[bye.entrant.index()];
                r.byes.push((round.number, bye.points));
                r.points += bye.points;
            }
            for table in &round.tables {
                let n = table.seats.len();
                for (seat, &id) in table.seats.iter().enumerate() {
                    let (outcome, points) = match &table.result {
                        None => (Outcome::Pending, Points::ZERO),
                        Some(TableResult::Forfeit { absent }) if absent.contains(&seat) => {
                            (Outcome::ForfeitLoss, Points::ZERO)
                        }
                        Some(TableResult::Forfeit { .. }) => {
                            (Outcome::ForfeitWin, place_points.for_place(n, 0, 1))
                        }
                        Some(TableResult::Played { scores, places }) => {
                            let place = places[seat];
                            let shared = places.iter().filter(|&&p| p == place).count();
                            let outcome = Outcome::Played {
                                score: scores[seat],
                                place,
                                shared,
                                places: places.clone(),
                            };
                            (
                                outcome,
                                place_points.for_place(n, place as usize - 1, shared),
                            )
                        }
                    };
                    if matches!(outcome, Outcome::Played { .. }) {
                        for &o in table.seats.iter().filter(|&&o| o != id) {
                            *ledger.met.entry((id, o)).or_default() += 1;
                        }
                    }
                    let r = &mut ledger.records[id.index()];
                    r.points += points;
                    r.games.push(Game {
                        round: round.number,
                        table: table.number,
                        seat,
                        seats: table.seats.clone(),
                        outcome,
                        points,
                    });
                }
            }
        }
        ledger
    }

    /// An entrant's record.
    pub fn record(&self, id: EntrantId) -> &Record {
        &self.records[id.index()]
    }

    /// An entrant's match points.
    pub fn points(&self, id: EntrantId) -> Points {
        self.records[id.index()].points
    }

    /// How many games `a` and `b` have played at the same table (forfeits do not count).
    pub fn met(&self, a: EntrantId, b: EntrantId) -> u32 {
        self.met.get(&(a, b)).copied().unwrap_or(0)
    }

    /// How many byes an entrant has had.
    pub fn byes(&self, id: EntrantId) -> usize {
        self.records[id.index()].byes.len()
    }
}
