//! Elo estimates from an event's games: the Bradley-Terry maximum-likelihood ratings, with
//! every game at a table of several players read as one result per pair of players (the
//! better place wins, equal places draw).
//!
//! Ratings are found by Hunter's minorisation-maximisation iteration ("MM algorithms for
//! generalized Bradley-Terry models", 2004). Each player also gets one virtual draw
//! against a player rated 0, so that a perfect or a zero score still has a finite rating;
//! the ratings are then shifted to average 0 over the players who played.

use std::collections::BTreeMap;

use crate::entrant::EntrantId;
use crate::event::Event;
use crate::ledger::Outcome;

/// Iterations of the estimate; it converges long before for event-sized data.
const ITERATIONS: usize = 2000;

/// Each player's estimated Elo rating (mean 0 over those who played a game), for the
/// entrants who played at least one game.
pub fn elo_estimates(event: &Event) -> BTreeMap<EntrantId, f64> {
    let ledger = event.ledger();
    // wins[i] (draws count half) and games[(i, j)] between pairs, over played games.
    let mut wins: BTreeMap<EntrantId, f64> = BTreeMap::new();
    let mut games: BTreeMap<(EntrantId, EntrantId), f64> = BTreeMap::new();
    for e in event.entrants() {
        for g in ledger.record(e.id).games.iter() {
            let Outcome::Played {
                place, ref places, ..
            } = g.outcome
            else {
                continue;
            };
            for (&o, &their) in g.seats.iter().zip(places) {
                if o == e.id {
                    continue;
                }
                let w = match place.cmp(&their) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                *wins.entry(e.id).or_default() += w;
                *games.entry((e.id, o)).or_default() += 1.0;
            }
        }
    }
    let players: Vec<EntrantId> = wins.keys().copied().collect();
    let mut gamma: BTreeMap<EntrantId, f64> = players.iter().map(|&p| (p, 1.0)).collect();
    for _ in 0..ITERATIONS {
        let mut next = BTreeMap::new();
        for &i in &players {
            let gi = gamma[&i];
            // The virtual draw against a player of strength 1.
            let mut denom = 1.0 / (gi + 1.0);
            for (&(a, b), &n) in games.range((i, EntrantId(0))..=(i, EntrantId(u32::MAX))) {
                debug_assert_eq!(a, i);
                denom += n / (gi + gamma[&b]);
            }
            next.insert(i, (wins[&i] + 0.5) / denom);
        }
        gamma = next;
    }
    let elo: BTreeMap<EntrantId, f64> = gamma
        .iter()
        .map(|(&p, &g)| (p, 400.0 * g.log10()))
        .collect();
    let mean = elo.values().sum::<f64>() / elo.len().max(1) as f64;
    elo.into_iter().map(|(p, r)| (p, r - mean)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EventConfig, NewEntrant, PairingSystem, TableResult};
    use blokus_core::VariantId;

    /// A round robin of three where A beats everyone and B beats C, twice over.
    #[test]
    fn ratings_follow_results_and_stay_finite() {
        let mut config = EventConfig::new("r", VariantId::Duo);
        config.pairing = PairingSystem::RoundRobin;
        config.rounds = 6;
        let names = ["A", "B", "C"];
        let mut e = Event::new(
            config,
            names.iter().map(|n| NewEntrant::person(n)).collect(),
        )
        .unwrap();
        while !e.is_finished() {
            let round = e.pair_next_round().unwrap().clone();
            for t in &round.tables {
                let scores = t
                    .seats
                    .iter()
                    .map(|id| match e.entrants()[id.index()].name.as_str() {
                        "A" => 10,
                        "B" => 0,
                        _ => -10,
                    })
                    .collect();
                e.record_result(round.number, t.number, TableResult::from_scores(scores))
                    .unwrap();
            }
        }
        let elo = elo_estimates(&e);
        let (a, b, c) = (elo[&EntrantId(0)], elo[&EntrantId(1)], elo[&EntrantId(2)]);
        assert!(a > b && b > c, "{a} {b} {c}");
        assert!(a.is_finite() && c.is_finite());
        assert!((a + b + c).abs() < 1e-6);
        // Symmetry: B sits halfway between A and C.
        assert!(((a - b) - (b - c)).abs() < 1e-6, "{a} {b} {c}");
    }
}
