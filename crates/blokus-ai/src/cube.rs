//! Players for Blokus 3D ([`blokus_core::cube`]): random, greedy and a UCT search over
//! the core's random playouts, behind [`CubePlayer`], built from the same specs as the
//! flat players (`random`, `greedy`, `mcts:level=5,seed=7`).
//!
//! The flat families' [`crate::MctsPlayer`] (priors, RAVE, threads) works on the flat
//! `Game`; the 3D search here is plain UCT on one thread, its moves expanded best-greedy
//! first, and its playouts the core's uniform random ones.

use std::time::{Duration, Instant};

use blokus_core::cube::score;
use blokus_core::cube::{CubeGame, CubeMove, CubePlayout, CubePosition, CubeRules};
use blokus_core::{Colour, PlayerId};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::mcts::{level_simulations, MctsOptions};
use crate::spec::parse_spec;
use crate::{Budget, SpecError};

/// A Blokus 3D player: given a game (not over), choose the move of the colour to move.
pub trait CubePlayer: Send {
    /// A short name for tables.
    fn name(&self) -> String;

    /// Chooses a legal move for the colour to move. The game is never over.
    fn choose(&mut self, game: &CubeGame, budget: Budget) -> CubeMove;
}

/// Builds a 3D player from a spec: `random`, `greedy`, `mcts` with options `level`
/// (1..9), `seconds`, `simulations` and `seed` (`threads` and `resign` are read but the
/// 3D search uses one thread and never resigns).
///
/// # Errors
/// [`SpecError`] naming the unknown player, option or bad value.
pub fn cube_player_from_spec(spec: &str) -> Result<Box<dyn CubePlayer>, SpecError> {
    let (kind, seed, mcts) = parse_spec(spec)?;
    Ok(match kind {
        "random" => Box::new(CubeRandom::new(seed)),
        "greedy" => Box::new(CubeGreedy::new(seed)),
        _ => Box::new(CubeMcts::new(mcts)),
    })
}

/// Uniformly random legal moves.
pub struct CubeRandom {
    rng: SmallRng,
}

impl CubeRandom {
    /// A random player with a seed.
    pub fn new(seed: u64) -> CubeRandom {
        CubeRandom {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl CubePlayer for CubeRandom {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, game: &CubeGame, _budget: Budget) -> CubeMove {
        let moves = game.legal_moves();
        assert!(!moves.is_empty(), "choose called with no legal move");
        moves[self.rng.gen_range(0..moves.len())]
    }
}

/// How good a move looks at once: squares it wins in the top view (twice), squares it
/// takes from other colours, and its size four times over (big stones are harder to
/// place later, and every stone left costs the same point).
pub fn greedy_value(rules: &CubeRules, pos: &CubePosition, colour: Colour, m: CubeMove) -> i32 {
    let t = rules.table();
    let p = t.get(m);
    // A column's old top is the voxel under the stone's lowest cube there (none on the
    // base): exactly the stone's support voxels.
    let columns = p
        .cubes()
        .iter()
        .filter(|&&v| t.below(v).is_none_or(|b| !p.cubes().contains(&b)))
        .count() as i32;
    let mine_before = p
        .support()
        .iter()
        .filter(|&&v| pos.owner(v) == Some(colour))
        .count() as i32;
    let taken = p.support().len() as i32 - mine_before;
    2 * (columns - mine_before) + taken + 4 * p.cubes().len() as i32
}

/// The legal move of best [`greedy_value`], ties broken at random.
pub struct CubeGreedy {
    rng: SmallRng,
}

impl CubeGreedy {
    /// A greedy player with a seed.
    pub fn new(seed: u64) -> CubeGreedy {
        CubeGreedy {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl CubePlayer for CubeGreedy {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, game: &CubeGame, _budget: Budget) -> CubeMove {
        let (rules, pos, colour) = (game.rules(), game.position(), game.to_move());
        let moves = game.legal_moves();
        let best = moves
            .iter()
            .map(|&m| greedy_value(rules, pos, colour, m))
            .max()
            .expect("choose called with no legal move");
        let top: Vec<CubeMove> = moves
            .into_iter()
            .filter(|&m| greedy_value(rules, pos, colour, m) == best)
            .collect();
        top[self.rng.gen_range(0..top.len())]
    }
}

/// One node of the search tree.
struct Node {
    pos: CubePosition,
    /// The player who made the move into this node (none at the root).
    mover: Option<PlayerId>,
    /// Moves not expanded yet, best greedy value last.
    untried: Option<Vec<CubeMove>>,
    children: Vec<(CubeMove, usize)>,
    visits: u32,
    /// Sum of the mover's rewards.
    reward: f64,
}

/// UCT search: per simulation, select by UCB1, expand one move, play a random playout,
/// reward each player by its finishing place (1 first, 0 last, shared places equal).
pub struct CubeMcts {
    opts: MctsOptions,
    rng: SmallRng,
}

/// UCB1 exploration constant (rewards are in 0..1).
const EXPLORATION: f64 = 0.7;

/// Progressive widening: a node visited n times has at most 1 + 2 sqrt(n) children, the
/// best greedy moves first, so a small budget is spent on few good moves rather than
/// once on each of hundreds.
fn may_widen(node: &Node) -> bool {
    let limit = 1 + (2.0 * f64::from(node.visits).sqrt()) as usize;
    node.untried.as_ref().is_none_or(|u| !u.is_empty()) && node.children.len() < limit
}

impl CubeMcts {
    /// A search player with these options (level, seconds, simulations, seed).
    pub fn new(opts: MctsOptions) -> CubeMcts {
        CubeMcts {
            rng: SmallRng::seed_from_u64(opts.seed),
            opts,
        }
    }

    /// (simulations, time limit) of one decision.
    fn limits(&self, budget: Budget) -> (u64, Option<Duration>) {
        let seconds = budget.seconds.or(self.opts.seconds);
        let time = seconds.map(|s| Duration::from_secs_f64(s.max(0.001)));
        match (budget.simulations.or(self.opts.simulations), time) {
            (Some(n), _) => (n.max(1), time),
            (None, Some(_)) => (u64::MAX, time),
            (None, None) => (level_simulations(self.opts.level), None),
        }
    }

    fn rewards(rules: &CubeRules, pos: &CubePosition) -> [f64; 4] {
        let results = score::results(rules, pos);
        let last = results.len().saturating_sub(1).max(1) as f64;
        let mut out = [0.0; 4];
        for r in results {
            out[r.player.index()] = 1.0 - (r.place - 1) as f64 / last;
        }
        out
    }

    fn untried(rules: &CubeRules, pos: &CubePosition) -> Vec<CubeMove> {
        if pos.is_over() {
            return Vec::new();
        }
        let colour = pos.to_move();
        let mut moves = pos.legal_moves(rules.table(), colour);
        moves.sort_by_cached_key(|&m| greedy_value(rules, pos, colour, m));
        moves
    }
}

impl CubePlayer for CubeMcts {
    fn name(&self) -> String {
        format!("mcts-3d:level={}", self.opts.level)
    }

    fn choose(&mut self, game: &CubeGame, budget: Budget) -> CubeMove {
        let rules = game.rules();
        let seating = rules.seating();
        let (sims, time) = self.limits(budget);
        let start = Instant::now();
        let mut playout = CubePlayout::new(rules);
        let root_pos = *game.position();
        let mut nodes = vec![Node {
            pos: root_pos,
            mover: None,
            untried: Some(CubeMcts::untried(rules, &root_pos)),
            children: Vec::new(),
            visits: 0,
            reward: 0.0,
        }];
        if let Some(only) = nodes[0].untried.as_ref().filter(|u| u.len() == 1) {
            return only[0];
        }
        let mut path = Vec::with_capacity(64);
        for sim in 0..sims {
            if time.is_some_and(|t| sim > 0 && start.elapsed() >= t) {
                break;
            }
            path.clear();
            let mut at = 0;
            path.push(at);
            // Select down to a node that may grow a child (or the end of the game).
            loop {
                let node = &nodes[at];
                if node.pos.is_over() || may_widen(node) {
                    break;
                }
                let ln = f64::from(node.visits.max(1)).ln();
                at = node
                    .children
                    .iter()
                    .map(|&(_, c)| {
                        let ch = &nodes[c];
                        let n = f64::from(ch.visits.max(1));
                        (c, ch.reward / n + EXPLORATION * (ln / n).sqrt())
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(c, _)| c)
                    .expect("a node that may not widen has children");
                path.push(at);
            }
            // Expand one move.
            if !nodes[at].pos.is_over() {
                if nodes[at].untried.is_none() {
                    nodes[at].untried = Some(CubeMcts::untried(rules, &nodes[at].pos));
                }
                if let Some(m) = nodes[at].untried.as_mut().and_then(Vec::pop) {
                    let mut pos = nodes[at].pos;
                    let mover = seating.player_of(pos.to_move());
                    pos.play(rules, m).expect("listed moves are legal");
                    nodes.push(Node {
                        pos,
                        mover: Some(mover),
                        untried: None,
                        children: Vec::new(),
                        visits: 0,
                        reward: 0.0,
                    });
                    let child = nodes.len() - 1;
                    nodes[at].children.push((m, child));
                    at = child;
                    path.push(at);
                }
            }
            let mut end = nodes[at].pos;
            playout.run(rules, &mut end, &mut self.rng);
            let rewards = CubeMcts::rewards(rules, &end);
            for &i in &path {
                let node = &mut nodes[i];
                node.visits += 1;
                if let Some(mover) = node.mover {
                    node.reward += rewards[mover.index()];
                }
            }
        }
        // Most visits, then best mean; on equal terms the earlier child (better greedy
        // value) stays.
        let mut best: Option<(CubeMove, u32, f64)> = None;
        for &(m, c) in &nodes[0].children {
            let (n, mean) = (
                nodes[c].visits,
                nodes[c].reward / f64::from(nodes[c].visits.max(1)),
            );
            if best.is_none_or(|(_, bn, bm)| n > bn || (n == bn && mean > bm)) {
                best = Some((m, n, mean));
            }
        }
        best.map_or_else(|| game.legal_moves()[0], |(m, _, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::cube::{Seating, Site};

    fn play_out(rules: &CubeRules, players: &mut [Box<dyn CubePlayer>]) -> CubeGame {
        let mut game = CubeGame::new(rules.clone());
        while !game.is_over() {
            let p = rules.seating().player_of(game.to_move());
            let m = players[p.index()].choose(&game, Budget::default());
            game.play(m).unwrap();
        }
        game
    }

    #[test]
    fn every_player_finishes_games_with_legal_moves() {
        let rules = CubeRules::new(Seating::Three, Site::builtin("ring").unwrap());
        let mut players: Vec<Box<dyn CubePlayer>> =
            ["random", "greedy", "mcts:simulations=40,seed=3"]
                .iter()
                .map(|s| cube_player_from_spec(s).unwrap())
                .collect();
        let game = play_out(&rules, &mut players);
        assert!(game.is_over() && game.moves().len() > 6);
    }

    #[test]
    fn specs_are_checked() {
        assert!(cube_player_from_spec("mcts:level=10").is_err());
        assert!(cube_player_from_spec("wizard").is_err());
        assert_eq!(
            cube_player_from_spec("mcts:level=3").unwrap().name(),
            "mcts-3d:level=3"
        );
    }

    /// Greedy beats random over a few two-player games on the plaza (a weak check that
    /// the value is not backwards; the match figures are measured by `blokus match`).
    #[test]
    fn greedy_beats_random_mostly() {
        let rules = CubeRules::new(Seating::Two, Site::builtin("plaza").unwrap());
        let mut wins = 0;
        for seed in 0..10 {
            let mut players: Vec<Box<dyn CubePlayer>> = vec![
                Box::new(CubeGreedy::new(seed)),
                Box::new(CubeRandom::new(seed)),
            ];
            let game = play_out(&rules, &mut players);
            let r = game.results();
            wins += usize::from(r[0].score > r[1].score);
        }
        assert!(wins >= 7, "greedy won {wins} of 10");
    }
}
