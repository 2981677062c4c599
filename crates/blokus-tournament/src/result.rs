//! The result of one table: the game's scores and places, or a forfeit.

use serde::{Deserialize, Serialize};

/// What happened at a table, seat by seat (seat 0 moves first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TableResult {
    /// The game was played.
    Played {
        /// Each seat's game score (SPEC 6 points, or what the variant counts).
        scores: Vec<i32>,
        /// Each seat's place, 1 best; equal places are shared (`1, 1, 3, 4`).
        places: Vec<u32>,
    },
    /// No game: the listed seats did not show up. Everyone else wins by forfeit; the
    /// players are not counted as having met.
    Forfeit {
        /// The absent seats.
        absent: Vec<usize>,
    },
}

/// A result that does not fit its table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadResult {
    /// Not one value per seat.
    #[error("the table has {seats} seats but the result gives {given} values")]
    SeatCount {
        /// Seats at the table.
        seats: usize,
        /// Values given.
        given: usize,
    },
    /// Places that are not a ranking of the seats (e.g. `1, 3`, or places against the
    /// scores).
    #[error("places {0:?} are not a ranking of the table (write e.g. 1, 2, 2, 4)")]
    Places(Vec<u32>),
    /// A forfeit naming a seat the table does not have, or twice.
    #[error("absent seats {absent:?} do not fit a table of {seats} seats")]
    Absent {
        /// The seats named.
        absent: Vec<usize>,
        /// Seats at the table.
        seats: usize,
    },
}

impl TableResult {
    /// A played game whose places follow from the scores (highest first, equal scores
    /// share the place): how results are entered over the board.
    pub fn from_scores(scores: Vec<i32>) -> TableResult {
        let places = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u32)
            .collect();
        TableResult::Played { scores, places }
    }

    /// A played game with places decided by the variant's own rule (Junior, Polyomino)
    /// rather than by the scores.
    ///
    /// # Errors
    /// [`BadResult::Places`] if `places` is not a competition ranking (each place is one
    /// more than the number of seats placed strictly better).
    pub fn with_places(scores: Vec<i32>, places: Vec<u32>) -> Result<TableResult, BadResult> {
        let r = TableResult::Played { scores, places };
        r.check(r.seats())?;
        Ok(r)
    }

    /// A forfeit: the `absent` seats did not show up.
    pub fn forfeit(absent: Vec<usize>) -> TableResult {
        TableResult::Forfeit { absent }
    }

    fn seats(&self) -> usize {
        match self {
            TableResult::Played { scores, .. } => scores.len(),
            TableResult::Forfeit { .. } => 0,
        }
    }

    /// Checks the result against a table of `seats` seats.
    ///
    /// # Errors
    /// [`BadResult`] naming the problem.
    pub fn check(&self, seats: usize) -> Result<(), BadResult> {
        match self {
            TableResult::Played { scores, places } => {
                if scores.len() != seats || places.len() != seats {
                    return Err(BadResult::SeatCount {
                        seats,
                        given: scores.len().max(places.len()),
                    });
                }
                let ranking = places
                    .iter()
                    .all(|&p| p as usize == 1 + places.iter().filter(|&&o| o < p).count());
                if !ranking {
                    return Err(BadResult::Places(places.clone()));
                }
                Ok(())
            }
            TableResult::Forfeit { absent } => {
                let mut sorted = absent.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if absent.is_empty()
                    || sorted.len() != absent.len()
                    || sorted.iter().any(|&s| s >= seats)
                {
                    return Err(BadResult::Absent {
                        absent: absent.clone(),
                        seats,
                    });
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_follow_scores_with_ties_shared() {
        let r = TableResult::from_scores(vec![-9, 12, -9, -30]);
        assert_eq!(
            r,
            TableResult::Played {
                scores: vec![-9, 12, -9, -30],
                places: vec![2, 1, 2, 4]
            }
        );
        assert!(r.check(4).is_ok());
        assert!(r.check(3).is_err());
    }

    #[test]
    fn bad_places_and_absences_are_named() {
        assert!(TableResult::with_places(vec![0, 0], vec![1, 3]).is_err());
        assert!(TableResult::with_places(vec![0, 0], vec![1, 1]).is_ok());
        assert!(TableResult::forfeit(vec![2]).check(2).is_err());
        assert!(TableResult::forfeit(vec![1, 1]).check(2).is_err());
        assert!(TableResult::forfeit(vec![]).check(2).is_err());
        assert!(TableResult::forfeit(vec![1]).check(2).is_ok());
    }
}
