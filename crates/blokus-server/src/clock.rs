//! Time controls and the clocks the server keeps for each timed game. The server is the
//! only authority: it charges the time between moves by its own clock (unix
//! milliseconds, so a stored clock survives a restart) and tells the clients in every
//! `state` message; pages only count down what they were told.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

/// Longest base time of a Fischer clock: three hours.
pub const MAX_BASE_SECONDS: u32 = 3 * 3600;
/// Largest Fischer increment: three minutes a move.
pub const MAX_INCREMENT_SECONDS: u32 = 180;
/// Most days a correspondence move may take.
pub const MAX_DAYS: u32 = 14;
const DAY_MS: i64 = 86_400_000;

/// The time control of a game, chosen when it is created (`clock` in `POST /api/games`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", try_from = "RawTimeControl")]
pub enum TimeControl {
    /// Every player starts with `base` seconds and gains `increment` seconds after each
    /// of their moves (`5+3` is 300 s + 3 s).
    Fischer {
        /// Starting time per player, seconds.
        base: u32,
        /// Added after each move, seconds.
        increment: u32,
    },
    /// Each move may take up to `days` days; the clock is full again after every move.
    Correspondence {
        /// Days per move.
        days: u32,
    },
}

/// The wire form before validation.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum RawTimeControl {
    Fischer { base: u32, increment: u32 },
    Correspondence { days: u32 },
}

impl TryFrom<RawTimeControl> for TimeControl {
    type Error = String;

    fn try_from(raw: RawTimeControl) -> Result<TimeControl, String> {
        match raw {
            RawTimeControl::Fischer { base, increment } => {
                if base == 0 || base > MAX_BASE_SECONDS {
                    return Err(format!(
                        "clock base {base} s is not in 1..{MAX_BASE_SECONDS} seconds"
                    ));
                }
                if increment > MAX_INCREMENT_SECONDS {
                    return Err(format!(
                        "clock increment {increment} s is over {MAX_INCREMENT_SECONDS} seconds"
                    ));
                }
                Ok(TimeControl::Fischer { base, increment })
            }
            RawTimeControl::Correspondence { days } => {
                if days == 0 || days > MAX_DAYS {
                    return Err(format!("{days} days per move is not in 1..{MAX_DAYS}"));
                }
                Ok(TimeControl::Correspondence { days })
            }
        }
    }
}

impl TimeControl {
    /// Each player's time at the start (and, by correspondence, after each move), ms.
    pub fn full_ms(self) -> i64 {
        match self {
            TimeControl::Fischer { base, .. } => i64::from(base) * 1000,
            TimeControl::Correspondence { days } => i64::from(days) * DAY_MS,
        }
    }

    /// The usual short name: `5+3` (minutes + seconds; half minutes as `0.5+0`, other
    /// odd bases in seconds as `45s+0`), `3 days/move`.
    pub fn label(self) -> String {
        match self {
            TimeControl::Fischer { base, increment } if base % 60 == 0 => {
                format!("{}+{increment}", base / 60)
            }
            TimeControl::Fischer { base, increment } if base % 30 == 0 => {
                format!("{}.5+{increment}", base / 60)
            }
            TimeControl::Fischer { base, increment } => format!("{base}s+{increment}"),
            TimeControl::Correspondence { days: 1 } => "1 day/move".into(),
            TimeControl::Correspondence { days } => format!("{days} days/move"),
        }
    }
}

/// The server's time now, unix milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The clock that runs: whose and since when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    /// The player (= seat) whose time is running.
    pub player: usize,
    /// When it started, unix ms.
    pub since: i64,
}

/// The clocks of one game: each player's time left and the one running.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Per player, ms left when its clock last stopped (for the running one: at
    /// `running.since`).
    pub remaining: Vec<i64>,
    /// The running clock, if any (none before every seat is taken and after the end).
    pub running: Option<Running>,
}

impl Clock {
    /// Full clocks for `players`, none running.
    pub fn new(control: TimeControl, players: usize) -> Clock {
        Clock {
            control,
            remaining: vec![control.full_ms(); players],
            running: None,
        }
    }

    /// A player's time left at `now`, ms (never below 0).
    pub fn left(&self, player: usize, now: i64) -> i64 {
        let base = self.remaining.get(player).copied().unwrap_or(0);
        let used = match self.running {
            Some(r) if r.player == player => (now - r.since).max(0),
            _ => 0,
        };
        (base - used).max(0)
    }

    /// When the running clock reaches zero, unix ms.
    pub fn flag_at(&self) -> Option<i64> {
        self.running
            .map(|r| r.since + self.remaining.get(r.player).copied().unwrap_or(0))
    }

    /// Stops the running clock at `now`, charging its player.
    pub fn stop(&mut self, now: i64) {
        if let Some(r) = self.running.take() {
            let left = self.left_with(r, now);
            if let Some(x) = self.remaining.get_mut(r.player) {
                *x = left;
            }
        }
    }

    fn left_with(&self, r: Running, now: i64) -> i64 {
        (self.remaining.get(r.player).copied().unwrap_or(0) - (now - r.since).max(0)).max(0)
    }

    /// `player` completed a move at `now`: their clock stops and gains the increment
    /// (Fischer) or is full again (correspondence).
    pub fn moved(&mut self, player: usize, now: i64) {
        // A clock that was not running (before every seat is taken) gains nothing.
        let was_running = self.running.is_some_and(|r| r.player == player);
        self.stop(now);
        if !was_running {
            return;
        }
        if let Some(x) = self.remaining.get_mut(player) {
            match self.control {
                TimeControl::Fischer { increment, .. } => *x += i64::from(increment) * 1000,
                TimeControl::Correspondence { days } => *x = i64::from(days) * DAY_MS,
            }
        }
    }

    /// Starts `player`'s clock at `now` (a running one is stopped and charged first).
    pub fn start(&mut self, player: usize, now: i64) {
        self.stop(now);
        self.running = Some(Running { player, since: now });
    }

    /// The running player's time ran out: their clock shows zero and stops.
    pub fn flagged(&mut self) -> Option<usize> {
        let r = self.running.take()?;
        if let Some(x) = self.remaining.get_mut(r.player) {
            *x = 0;
        }
        Some(r.player)
    }

    /// Moves the running clock's start `ms` later: time while the server was down is
    /// not charged.
    pub fn shift(&mut self, ms: i64) {
        if let Some(r) = &mut self.running {
            r.since += ms.max(0);
        }
    }

    /// What clients see at `now`.
    pub fn view(&self, now: i64) -> ClockView {
        ClockView {
            control: self.control,
            label: self.control.label(),
            remaining_ms: (0..self.remaining.len())
                .map(|p| self.left(p, now))
                .collect(),
            running: self.running.map(|r| r.player),
        }
    }
}

/// The clocks in a `state` message.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// The time control.
    pub control: TimeControl,
    /// Its short name (`5+3`, `3 days/move`).
    pub label: String,
    /// Per seat, ms left when the message was made.
    pub remaining_ms: Vec<i64>,
    /// The seat whose clock runs (counts down from `remaining_ms`), if any.
    pub running: Option<usize>,
}

/// How long an AI seat may think with `left` ms on its clock: a share of the time left
/// plus most of the increment, never more than a third of what is left. `None` when the
/// clock is no constraint (correspondence).
pub fn ai_seconds(control: TimeControl, left: i64) -> Option<f64> {
    match control {
        TimeControl::Fischer { increment, .. } => {
            let left = left as f64 / 1000.0;
            let share = left / 20.0 + 0.75 * f64::from(increment);
            Some(share.min(left / 3.0).max(0.02))
        }
        TimeControl::Correspondence { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<TimeControl, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn time_controls_are_checked_when_read() {
        assert_eq!(
            parse(r#"{"type":"fischer","base":300,"increment":3}"#).unwrap(),
            TimeControl::Fischer {
                base: 300,
                increment: 3
            }
        );
        assert_eq!(
            parse(r#"{"type":"correspondence","days":3}"#).unwrap(),
            TimeControl::Correspondence { days: 3 }
        );
        for (bad, why) in [
            (
                r#"{"type":"fischer","base":0,"increment":3}"#,
                "clock base 0 s",
            ),
            (r#"{"type":"fischer","base":99999,"increment":0}"#, "99999"),
            (
                r#"{"type":"fischer","base":60,"increment":999}"#,
                "increment 999",
            ),
            (r#"{"type":"correspondence","days":0}"#, "0 days"),
            (r#"{"type":"correspondence","days":30}"#, "30 days"),
            (r#"{"type":"hourglass","base":60}"#, "hourglass"),
            (r#"{"type":"fischer","base":60}"#, "increment"),
            (r#"{"type":"fischer","base":60,"increment":0,"x":1}"#, "x"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let labels: Vec<String> = [(60, 0), (300, 3), (30, 0), (90, 1), (4, 0)]
            .map(|(base, increment)| TimeControl::Fischer { base, increment }.label())
            .into();
        assert_eq!(labels, ["1+0", "5+3", "0.5+0", "1.5+1", "4s+0"]);
        assert_eq!(
            TimeControl::Correspondence { days: 3 }.label(),
            "3 days/move"
        );
    }

    #[test]
    fn moves_charge_the_mover_and_add_the_increment() {
        let mut c = Clock::new(
            TimeControl::Fischer {
                base: 60,
                increment: 2,
            },
            2,
        );
        c.start(0, 1_000);
        assert_eq!(c.left(0, 11_000), 50_000);
        assert_eq!(c.left(1, 11_000), 60_000);
        assert_eq!(c.flag_at(), Some(61_000));
        c.moved(0, 11_000);
        c.start(1, 11_000);
        assert_eq!(c.remaining[0], 52_000);
        assert_eq!(c.view(12_000).remaining_ms, [52_000, 59_000]);
        assert_eq!(c.view(12_000).running, Some(1));
        c.shift(5_000);
        assert_eq!(c.left(1, 17_000), 59_000, "downtime is not charged");
        assert_eq!(c.flagged(), Some(1));
        assert_eq!(c.remaining[1], 0);
        assert_eq!(c.flag_at(), None);

        let mut c = Clock::new(TimeControl::Correspondence { days: 1 }, 3);
        c.start(2, 0);
        c.moved(2, 3_600_000);
        assert_eq!(c.remaining[2], DAY_MS, "full again after a move");
        assert_eq!(
            c.left(2, 99 * DAY_MS),
            DAY_MS,
            "a stopped clock does not run"
        );
    }

    #[test]
    fn the_ai_thinks_within_its_time() {
        let f = TimeControl::Fischer {
            base: 60,
            increment: 0,
        };
        assert_eq!(ai_seconds(f, 60_000), Some(3.0));
        assert!(ai_seconds(f, 300).unwrap() <= 0.1);
        let inc = TimeControl::Fischer {
            base: 60,
            increment: 5,
        };
        assert!(ai_seconds(inc, 3_000).unwrap() <= 1.0);
        assert_eq!(ai_seconds(TimeControl::Correspondence { days: 1 }, 1), None);
    }
}
