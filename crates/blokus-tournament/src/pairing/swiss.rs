//! Swiss: players in standings order (match points, then pairing number); each table
//! takes the best-placed unseated player and the next best-placed ones, and among all
//! pairings the search keeps the one with the fewest repeat meetings, then the smallest
//! score spread (the sum over tables of each player's squared distance in match points from
//! the table's first player). With no repeats to avoid this is the Monrad order: 1-2,
//! 3-4, ... within each score group, a player left over floating down to the next group.

use std::cmp::Reverse;

use super::search::{search, Preferences};
use super::Contender;
use crate::ledger::Ledger;
use crate::points::Points;

struct Ranked<'a> {
    /// The players, best first.
    players: &'a [Contender],
}

impl Preferences for Ranked<'_> {
    fn anchor(&self, unseated: &[bool], _scan: usize) -> usize {
        unseated
            .iter()
            .position(|&u| u)
            .expect("an unseated player")
    }

    fn candidates(&self, _anchor: usize, unseated: &[bool]) -> Vec<usize> {
        (0..self.players.len()).filter(|&i| unseated[i]).collect()
    }

    fn cost(&self, table: &[usize]) -> Points {
        let top = self.players[table[0]].score;
        table
            .iter()
            .map(|&i| (top - self.players[i].score).squared())
            .sum()
    }
}

/// Tables of `sizes` for `players` (any order); returns tables of indices into `players`.
pub(crate) fn pair(players: &[Contender], sizes: &[usize], ledger: &Ledger) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| (Reverse(players[i].score), players[i].number));
    let ranked: Vec<Contender> = order.iter().map(|&i| players[i]).collect();
    let met = |a: usize, b: usize| ledger.met(ranked[a].id, ranked[b].id);
    let found = search(&Ranked { players: &ranked }, sizes, ranked.len(), &met, 0);
    found
        .tables
        .into_iter()
        .map(|t| t.into_iter().map(|i| order[i]).collect())
        .collect()
}
