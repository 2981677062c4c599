//! Game analysis: the search's value of every candidate move of a position ("rate a
//! move"), the expected result of every side in each position of a game, and how much
//! each move lost against the search's preferred move.
//!
//! A value is what the search expects a side to get from the game, in [0, 1]: mostly its
//! share of the win (1 a sure win, 0 a sure loss, 1/2 each for a two-way draw) plus a
//! small part for the score margin (see [`crate::Context::outcome`]). A move's *loss* is
//! the mover's value before the move minus its value after it; the thresholds of
//! [`MoveClass`] turn a loss into inaccuracy, mistake or blunder.

use blokus_core::{Game, GameEvent, Move, PieChoice, Side};

use crate::context::Context;
use crate::mcts::{best_stat, EarlyStop, MctsOptions, MctsPlayer, Params};
use crate::{Budget, Decision};

/// One candidate move with the search's opinion of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedMove {
    /// The placement or pie choice.
    pub decision: Decision,
    /// Simulations that went through it.
    pub visits: u64,
    /// Its mean value for the side that makes it (0.5 when never visited).
    pub value: f32,
}

/// The search's view of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The candidates the search considered, most visited first (in a colour's first
    /// placements only its biggest pieces are candidates).
    pub moves: Vec<RatedMove>,
    /// The preferred move's mean value for every side (index = side): the mover's
    /// best, as the search sees it.
    pub best_values: Vec<f32>,
    /// The expected result of each side: the mean value of every simulation from the
    /// position. It is what the position is worth as the previous mover's candidate (the
    /// same measure as a candidate's value in the search before), and it does not swing
    /// towards whoever is to move as the preferred move's value does.
    pub values: Vec<f32>,
    /// Simulations run.
    pub simulations: u64,
}

impl Rating {
    /// The preferred move: the most visited candidate.
    pub fn best(&self) -> Option<Decision> {
        self.moves.first().map(|m| m.decision)
    }
}

impl MctsPlayer {
    /// Searches the game's position (not over) with `budget` and rates every candidate.
    /// The whole budget is searched (no early stop: every simulation sharpens the
    /// values); a tree kept from an earlier search of the position is searched further.
    pub fn rate(&mut self, game: &Game, budget: Budget) -> Rating {
        let early = self.params.early_stop;
        self.set_early_stop(EarlyStop::Never);
        let stats = self.search(game, budget);
        self.set_early_stop(early);
        let sides = game.rules().v().num_sides();
        let even = vec![1.0 / sides as f32; sides];
        let best_values = match best_stat(&stats) {
            Some(b) => (0..sides).map(|s| b.mean(s)).collect(),
            None => even.clone(),
        };
        let visits: u64 = stats.iter().map(|s| s.visits).sum();
        let values = if visits == 0 {
            even
        } else {
            (0..sides)
                .map(|side| {
                    let sum: f64 = stats.iter().map(|s| s.sums[side]).sum();
                    (sum / visits as f64) as f32
                })
                .collect()
        };
        let mut moves: Vec<RatedMove> = stats
            .iter()
            .map(|s| RatedMove {
                decision: s.decision(),
                visits: s.visits,
                value: s.mean(s.side),
            })
            .collect();
        // Most visited first; the preferred move (same rule as `best_stat`) leads.
        let best = best_stat(&stats).map(|b| b.decision());
        moves.sort_by(|a, b| {
            (Some(b.decision) == best)
                .cmp(&(Some(a.decision) == best))
                .then(b.visits.cmp(&a.visits))
                .then(b.value.total_cmp(&a.value))
        });
        Rating {
            moves,
            best_values,
            values,
            simulations: self.last_stats().simulations,
        }
    }
}

/// How bad a move was, by the value it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    /// Lost at least [`MoveClass::INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MoveClass::MISTAKE`].
    Mistake,
    /// Lost at least [`MoveClass::BLUNDER`].
    Blunder,
}

impl MoveClass {
    /// Smallest loss of an inaccuracy (a twentieth of a game).
    pub const INACCURACY: f32 = 0.05;
    /// Smallest loss of a mistake (a tenth of a game).
    pub const MISTAKE: f32 = 0.10;
    /// Smallest loss of a blunder (a fifth of a game).
    pub const BLUNDER: f32 = 0.20;

    /// The class of a loss, or `None` for a good enough move.
    pub fn of_loss(loss: f32) -> Option<MoveClass> {
        if loss >= Self::BLUNDER {
            Some(MoveClass::Blunder)
        } else if loss >= Self::MISTAKE {
            Some(MoveClass::Mistake)
        } else if loss >= Self::INACCURACY {
            Some(MoveClass::Inaccuracy)
        } else {
            None
        }
    }

    /// Its name in tables and records.
    pub fn name(self) -> &'static str {
        match self {
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }
}

/// The analysis of one position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The preferred move's value for every side (see [`Rating::best_values`]); exact in
    /// a finished game.
    pub best_values: Vec<f32>,
    /// The expected result of each side (see [`Rating::values`]); exact in a finished
    /// game.
    pub values: Vec<f32>,
    /// The search's preferred move (`None` when the game is over).
    pub best: Option<Decision>,
    /// Simulations run (0 when the game is over).
    pub simulations: u64,
}

/// Searches positions of games for analysis: one searcher, its tree kept from one
/// position to the next.
pub struct Analyzer {
    player: MctsPlayer,
    budget: Budget,
}

impl Analyzer {
    /// An analyzer searching each position with `simulations` (and at most `seconds`, if
    /// given) on `threads` threads, reproducible with one thread and a seed.
    pub fn new(simulations: u64, seconds: Option<f64>, threads: usize, seed: u64) -> Analyzer {
        let opts = MctsOptions {
            simulations: Some(simulations.max(1)),
            seconds,
            threads: threads.max(1),
            seed,
            resign: false,
            ..MctsOptions::default()
        };
        // Every simulation counts towards the values, not only until the move is known.
        let params = Params {
            early_stop: EarlyStop::Never,
            ..Params::default()
        };
        Analyzer {
            player: MctsPlayer::with_params(opts, params),
            budget: Budget::default(),
        }
    }

    /// The position after the first `ply` events of `game`.
    pub fn evaluate(&mut self, game: &Game, ply: usize) -> PositionEval {
        let mut at = game.clone();
        while at.events().len() > ply {
            at.undo().expect("an event to undo");
        }
        if at.is_over() {
            let (rules, pos) = (at.rules(), at.position());
            // A clock that ran out decides the game whatever the board says.
            let values = if pos.any_timed_out() {
                blokus_core::score::win_shares(rules, pos)
                    .into_iter()
                    .map(|v| v as f32)
                    .collect()
            } else {
                Context::new(rules).final_values(pos)[..rules.v().num_sides()].to_vec()
            };
            return PositionEval {
                best_values: values.clone(),
                values,
                best: None,
                simulations: 0,
            };
        }
        let rating = self.player.rate(&at, self.budget);
        PositionEval {
            best: rating.best(),
            best_values: rating.best_values,
            values: rating.values,
            simulations: rating.simulations,
        }
    }

    /// Evaluates every position of a game (the start, after each event), calling
    /// `progress(done, total)` after each.
    pub fn evaluate_game(
        &mut self,
        game: &Game,
        mut progress: impl FnMut(usize, usize),
    ) -> Vec<PositionEval> {
        let total = game.events().len() + 1;
        (0..total)
            .map(|ply| {
                let eval = self.evaluate(game, ply);
                progress(ply + 1, total);
                eval
            })
            .collect()
    }
}

/// What one event of a game was worth.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Index of the event (0 = the first).
    pub ply: usize,
    /// The event.
    pub event: GameEvent,
    /// What it played.
    pub played: Decision,
    /// The side that made it.
    pub side: Side,
    /// The mover's expected result before it: the value of the preferred move.
    pub before: f32,
    /// The mover's expected result after it: the mean value of the search from the
    /// position after it (the same measure as the preferred move's value, so the
    /// search's optimism for the side to move does not count as a loss).
    pub after: f32,
    /// `before - after`, not below 0; 0 when the move is the preferred one (a
    /// difference then is the search's noise).
    pub loss: f32,
    /// The class of the loss.
    pub class: Option<MoveClass>,
    /// The search's preferred move in the position before.
    pub best: Option<Decision>,
}

/// The decision an event made (`None` for a clock running out, which nobody chose).
pub fn event_decision(event: GameEvent) -> Option<Decision> {
    match event {
        GameEvent::Place { mv, .. } => Some(Decision::Place(mv)),
        GameEvent::Pie(c) => Some(Decision::Pie(c)),
        GameEvent::TimeOut { .. } => None,
    }
}

/// Reviews every placement and pie choice of `game` from the evaluations of its
/// positions (`evals[i]` before event `i`, one more for the final position). Events
/// without both evaluations are left out (an unfinished analysis), and so are time-outs.
pub fn review(game: &Game, evals: &[PositionEval]) -> Vec<MoveReview> {
    let rules = game.rules();
    let v = rules.v();
    game.events()
        .iter()
        .enumerate()
        .take(evals.len().saturating_sub(1))
        .filter_map(|(ply, &event)| {
            let played = event_decision(event)?;
            let pos = game.position_at(ply).expect("a position before each event");
            let side = v.side_of_player(pos.player_to_move(rules));
            let before = evals[ply].best_values[side.index()];
            let after = evals[ply + 1].values[side.index()];
            let best = evals[ply].best;
            let loss = if best == Some(played) {
                0.0
            } else {
                (before - after).max(0.0)
            };
            Some(MoveReview {
                ply,
                event,
                played,
                side,
                before,
                after,
                loss,
                class: MoveClass::of_loss(loss),
                best,
            })
        })
        .collect()
}

/// A decision as move text: cells, or `keep`/`swap`.
pub fn decision_text(game: &Game, d: Decision) -> String {
    match d {
        Decision::Place(mv) => blokus_core::notation::format_move(game.rules().table(), mv),
        Decision::Pie(PieChoice::Keep) => "keep".into(),
        Decision::Pie(PieChoice::Swap) => "swap".into(),
        Decision::Resign => "resign".into(),
    }
}

/// The move of a decision, if it is a placement.
pub fn placement(d: Decision) -> Option<Move> {
    match d {
        Decision::Place(mv) => Some(mv),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::Rules;

    #[test]
    fn thresholds_class_losses() {
        assert_eq!(MoveClass::of_loss(0.0), None);
        assert_eq!(MoveClass::of_loss(0.049), None);
        assert_eq!(MoveClass::of_loss(0.05), Some(MoveClass::Inaccuracy));
        assert_eq!(MoveClass::of_loss(0.1), Some(MoveClass::Mistake));
        assert_eq!(MoveClass::of_loss(0.2), Some(MoveClass::Blunder));
        assert_eq!(MoveClass::of_loss(1.0), Some(MoveClass::Blunder));
    }

    #[test]
    fn rating_lists_candidates_with_the_preferred_first_and_two_sided_values() {
        let game = Game::new(Rules::by_name("duo").unwrap());
        let mut a = Analyzer::new(300, None, 1, 1);
        let eval = a.evaluate(&game, 0);
        for v in [&eval.values, &eval.best_values] {
            assert_eq!(v.len(), 2);
            assert!((v[0] + v[1] - 1.0).abs() < 1e-3, "{eval:?}");
        }
        assert_eq!(eval.simulations, 300);
        // A fresh tree (the position's own would be kept and searched further).
        crate::Player::reset(&mut a.player);
        let rating = a.player.rate(&game, Budget::default());
        assert!(rating.moves.len() > 1);
        assert_eq!(rating.best(), Some(rating.moves[0].decision));
        let visits: u64 = rating.moves.iter().map(|m| m.visits).sum();
        assert_eq!(visits, 300);
    }

    #[test]
    fn a_finished_game_is_valued_exactly() {
        let mut game = Game::new(Rules::by_name("duo").unwrap());
        let mut g = crate::GreedyPlayer::new(5);
        while !game.is_over() {
            match crate::Player::decide(&mut g, &game, Budget::default()) {
                Decision::Place(m) => game.play(m).unwrap(),
                d => panic!("{d:?}"),
            }
        }
        let n = game.events().len();
        let eval = Analyzer::new(10, None, 1, 1).evaluate(&game, n);
        assert_eq!(eval.best, None);
        assert_eq!(eval.simulations, 0);
        // Duo's search reports win shares (see `mcts::reward`).
        let (shares, _) = Context::new(game.rules()).shares_and_margins(game.position());
        assert_eq!(eval.values, shares[..2].to_vec());
        assert_eq!(eval.best_values, eval.values);
    }

    #[test]
    fn review_computes_losses_from_consecutive_positions() {
        let mut game = Game::new(Rules::by_name("duo").unwrap());
        let first = game.legal_moves()[0];
        let second = game.legal_moves()[1];
        game.play(first).unwrap();
        let evals = vec![
            PositionEval {
                best_values: vec![0.6, 0.4],
                values: vec![0.55, 0.45],
                best: Some(Decision::Place(second)),
                simulations: 1,
            },
            PositionEval {
                best_values: vec![0.2, 0.8],
                values: vec![0.3, 0.7],
                best: None,
                simulations: 1,
            },
        ];
        let r = review(&game, &evals);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].side, Side::new(0));
        assert!((r[0].loss - 0.3).abs() < 1e-6);
        assert_eq!(r[0].class, Some(MoveClass::Blunder));
        // The preferred move loses nothing, whatever the noise.
        let evals = vec![
            PositionEval {
                best: Some(Decision::Place(first)),
                ..evals[0].clone()
            },
            evals[1].clone(),
        ];
        assert_eq!(review(&game, &evals)[0].class, None);
        // An unfinished analysis reviews the events it has both sides of.
        assert!(review(&game, &evals[..1]).is_empty());
    }
}
