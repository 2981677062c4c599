//! Italo-svizzero (SPEC 8): the players sit on a circle in pairing-number order; each
//! round's scan resumes after the last player the previous round seated and only moves
//! forward.
//!
//! A table is seated by taking the highest-scoring unseated player (the first met going
//! forward from the scan position when several share that score) and giving them, one
//! after another, the next players going forward on the highest score available who have
//! met nobody already at the table; the scan then resumes after the table's player
//! furthest forward. Round 1, with everyone on 0, is therefore 1-2, 3-4, ... (1-2-3-4,
//! 5-6-7-8, ... at 4 seats). When that greedy walk would force a repeat meeting that
//! another choice avoids, the search backtracks to the next choice in the same order.

use super::search::{search, Preferences};
use super::Contender;
use crate::entrant::PairingNumber;
use crate::ledger::Ledger;

struct Circle<'a> {
    /// The players in pairing-number order.
    players: &'a [Contender],
}

impl Circle<'_> {
    /// Steps forward from `from` to `to` round the circle.
    fn ahead(&self, from: usize, to: usize) -> usize {
        (to + self.players.len() - from) % self.players.len()
    }
}

impl Preferences for Circle<'_> {
    fn anchor(&self, unseated: &[bool], scan: usize) -> usize {
        (0..self.players.len())
            .filter(|&i| unseated[i])
            .min_by_key(|&i| {
                (
                    std::cmp::Reverse(self.players[i].score),
                    self.ahead(scan, i),
                )
            })
            .expect("an unseated player")
    }

    fn candidates(&self, anchor: usize, unseated: &[bool]) -> Vec<usize> {
        let mut c: Vec<usize> = (0..self.players.len()).filter(|&i| unseated[i]).collect();
        c.sort_by_key(|&i| {
            (
                std::cmp::Reverse(self.players[i].score),
                self.ahead(anchor, i),
            )
        });
        c
    }

    fn scan_after(&self, table: &[usize], _scan: usize) -> usize {
        let anchor = table[0];
        let furthest = table
            .iter()
            .map(|&i| self.ahead(anchor, i))
            .max()
            .unwrap_or(0);
        (anchor + furthest + 1) % self.players.len()
    }
}

/// Tables of `sizes` for `players` (in pairing-number order), the scan resuming after
/// pairing number `scan_end` (from number 1 in round 1). Returns the tables (player
/// indices, in seating order) and the number of the last player seated.
pub(crate) fn pair(
    players: &[Contender],
    sizes: &[usize],
    ledger: &Ledger,
    scan_end: Option<PairingNumber>,
) -> (Vec<Vec<usize>>, Option<PairingNumber>) {
    if players.is_empty() || sizes.is_empty() {
        return (vec![], scan_end);
    }
    let start = scan_end
        .and_then(|end| players.iter().position(|p| p.number > end))
        .unwrap_or(0);
    let met = |a: usize, b: usize| ledger.met(players[a].id, players[b].id);
    let found = search(&Circle { players }, sizes, players.len(), &met, start);
    let last = (found.scan + players.len() - 1) % players.len();
    (found.tables, Some(players[last].number))
}
