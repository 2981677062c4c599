//! What a run does: how many games of which kind, how fast, for how long.

use std::net::Ipv4Addr;
use std::time::Duration;

/// How fast the harness's people move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pace {
    /// Move as soon as it is their turn.
    Flat,
    /// Think a uniformly random time in `[min, max]` before each move.
    Human {
        /// Shortest thinking time.
        min: Duration,
        /// Longest thinking time.
        max: Duration,
    },
}

/// A load run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Games played at the same time (each slot starts a new game when its game ends).
    pub games: usize,
    /// How long the run lasts (fault mode: the load between two kills is set by
    /// [`crate::FaultOptions`], this bounds the whole run).
    pub duration: Duration,
    /// Variant id of the games.
    pub variant: String,
    /// Share of the games (0..=1) played by one person against the AI.
    pub ai_share: f64,
    /// Level of the AI seats.
    pub ai_level: u8,
    /// Spectator connections per game.
    pub spectators: usize,
    /// How fast people move.
    pub pace: Pace,
    /// Loopback source addresses the clients are spread over (1 = all from 127.0.0.1).
    pub addresses: usize,
    /// Games each slot plays at most (`None`: as many as fit in the duration).
    pub games_per_slot: Option<u32>,
    /// A game where nothing arrives for this long is given up (counted as stalled).
    pub stall: Duration,
    /// Seed of the random choices (moves, thinking times).
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            games: 100,
            duration: Duration::from_secs(30),
            variant: "duo".into(),
            ai_share: 0.0,
            ai_level: 1,
            spectators: 1,
            pace: Pace::Flat,
            addresses: 100,
            games_per_slot: None,
            stall: Duration::from_secs(60),
            seed: 1,
        }
    }
}

impl Options {
    /// Whether slot `i` plays against the AI: the AI slots are spread evenly.
    pub fn slot_has_ai(&self, i: usize) -> bool {
        let share = self.ai_share.clamp(0.0, 1.0);
        ((i + 1) as f64 * share).floor() > (i as f64 * share).floor()
    }

    /// The source address of slot `i`'s clients: 127.0.0.1 with one address, otherwise
    /// one of 127.0.x.y (all on the loopback interface), as if each slot were another
    /// person's machine, so per-address limits see people rather than one giant client.
    pub fn source_address(&self, i: usize) -> Ipv4Addr {
        if self.addresses <= 1 {
            return Ipv4Addr::LOCALHOST;
        }
        let k = i % self.addresses.min(250 * 250);
        Ipv4Addr::new(127, 0, 1 + (k / 250) as u8, 1 + (k % 250) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ai_slots_are_spread_by_share() {
        let o = Options {
            ai_share: 0.25,
            ..Options::default()
        };
        let ai: Vec<usize> = (0..8).filter(|&i| o.slot_has_ai(i)).collect();
        assert_eq!(ai, vec![3, 7]);
        let none = Options::default();
        assert!((0..100).all(|i| !none.slot_has_ai(i)));
    }

    #[test]
    fn source_addresses_stay_on_loopback() {
        let o = Options {
            addresses: 1000,
            ..Options::default()
        };
        assert_eq!(o.source_address(0), Ipv4Addr::new(127, 0, 1, 1));
        assert_eq!(o.source_address(251), Ipv4Addr::new(127, 0, 2, 2));
        assert!((0..5000).all(|i| o.source_address(i).is_loopback()));
        let one = Options {
            addresses: 1,
            ..Options::default()
        };
        assert_eq!(one.source_address(7), Ipv4Addr::LOCALHOST);
    }
}
