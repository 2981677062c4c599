//! The pairing systems: who gets a bye, who sits at which table, in which seat.

mod italo;
pub mod round_robin;
pub(crate) mod search;
mod seats;
mod swiss;

use std::cmp::Reverse;

use crate::entrant::{EntrantId, PairingNumber};
use crate::ledger::Ledger;
use crate::points::Points;

pub use seats::seat_order;

/// A player to be paired this round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contender {
    /// Who.
    pub id: EntrantId,
    /// Their pairing number.
    pub number: PairingNumber,
    /// Their match points before the round.
    pub score: Points,
}

/// A round's pairing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairing {
    /// Tables, best scores first, each in seat order.
    pub tables: Vec<Vec<EntrantId>>,
    /// Players with a bye.
    pub byes: Vec<EntrantId>,
    /// Italo-svizzero: the number of the last player seated.
    pub scan_end: Option<PairingNumber>,
}

/// The `count` players who get a bye: those with the fewest byes so far, then the lowest
/// score, then the highest pairing number.
pub fn choose_byes(players: &[Contender], ledger: &Ledger, count: usize) -> Vec<EntrantId> {
    let mut order: Vec<&Contender> = players.iter().collect();
    order.sort_by_key(|c| (ledger.byes(c.id), c.score, Reverse(c.number)));
    order.iter().take(count).map(|c| c.id).collect()
}

/// How the tables are walked: the two searching systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Italo-svizzero, resuming after the pairing number where the previous round's scan
    /// ended (from number 1 in round 1).
    Circle {
        /// The number of the last player seated in the previous round.
        scan_end: Option<PairingNumber>,
    },
    /// Swiss, in standings order.
    Ranked,
}

/// What italo-svizzero and Swiss need to pair a round.
pub struct Request<'a> {
    /// The system.
    pub walk: Walk,
    /// The players to pair, in pairing-number order.
    pub players: &'a [Contender],
    /// Everything played so far.
    pub ledger: &'a Ledger,
    /// The table sizes, largest first.
    pub sizes: &'a [usize],
    /// How many byes.
    pub byes: usize,
}

/// Pairs a round with italo-svizzero or Swiss (round robin follows its fixed schedule).
pub fn pair(req: &Request) -> Pairing {
    let byes = choose_byes(req.players, req.ledger, req.byes);
    let rest: Vec<Contender> = req
        .players
        .iter()
        .filter(|c| !byes.contains(&c.id))
        .copied()
        .collect();
    let (tables, scan_end) = match req.walk {
        Walk::Circle { scan_end } => italo::pair(&rest, req.sizes, req.ledger, scan_end),
        Walk::Ranked => (swiss::pair(&rest, req.sizes, req.ledger), None),
    };
    let tables = tables
        .into_iter()
        .map(|t| {
            let ids: Vec<EntrantId> = t.iter().map(|&i| rest[i].id).collect();
            seat_order(&ids, req.ledger)
        })
        .collect();
    Pairing {
        tables,
        byes,
        scan_end,
    }
}

/// The last round seated by standings: byes as usual, then the best players at table 1,
/// the next at table 2, and so on. `ranked` lists the players to pair, best first.
pub fn by_standings(
    ranked: &[Contender],
    ledger: &Ledger,
    sizes: &[usize],
    byes: usize,
) -> Pairing {
    let byes = choose_byes(ranked, ledger, byes);
    let mut rest = ranked
        .iter()
        .filter(|c| !byes.contains(&c.id))
        .map(|c| c.id);
    let tables = sizes
        .iter()
        .map(|&s| seat_order(&rest.by_ref().take(s).collect::<Vec<_>>(), ledger))
        .collect();
    Pairing {
        tables,
        byes,
        scan_end: None,
    }
}
