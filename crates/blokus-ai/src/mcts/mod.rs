//! Monte-Carlo tree search: priors from move features, RAVE, knowledge-guided playouts,
//! a value per side, tree reuse between moves, and root parallelism over std threads.

pub mod reward;
mod schedule;
mod search;
mod tree;

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::{Duration, Instant};

use blokus_core::{Colour, Game, Move, PieChoice};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

pub use schedule::Schedule;
pub use search::{EarlyStop, Params, PriorSpread};
use search::{Limit, Searcher};
use tree::{PIE_KEEP, PIE_SWAP};

use crate::context::{Context, MAX_SIDES};
use crate::endgame::{self, Outcome, Solved};
use crate::{Budget, Decision, Player};

/// Highest strength level.
pub const MAX_LEVEL: u8 = 9;

/// Simulations per move of each level (index = level - 1), spread over the game by the
/// growing [`Schedule`]. Up to level 8 each level has two to two and a half times the
/// simulations of the one below: a clear step in strength (see docs/ai.md for the
/// measured ladder). Level 9 is the strongest play at about a second a move on one core
/// in Classic (less in Duo, about three seconds in Trigon).
pub(crate) const LEVEL_SIMULATIONS: [u64; MAX_LEVEL as usize] =
    [12, 25, 60, 150, 400, 1_000, 2_500, 5_000, 40_000];

/// The least simulations per move (before the [`Schedule`] spreads them) with which a
/// player plays its opening book: levels 7 to 9, and explicit budgets that large.
pub const BOOK_MIN_SIMULATIONS: u64 = 2_000;

/// Simulations per move of a level (clamped to 1..=[`MAX_LEVEL`]): with a time limit in
/// the [`Budget`], the level still caps the search.
pub fn level_simulations(level: u8) -> u64 {
    LEVEL_SIMULATIONS[(level.clamp(1, MAX_LEVEL) - 1) as usize]
}

/// Settings of an [`MctsPlayer`].
#[derive(Clone, Debug, PartialEq)]
pub struct MctsOptions {
    /// Strength level 1..=9 (sets the default simulations; level 1 also plays noisily).
    pub level: u8,
    /// Seconds per move (overrides the level's simulation count when given alone).
    pub seconds: Option<f64>,
    /// Simulations per move (overrides the level's).
    pub simulations: Option<u64>,
    /// Search threads.
    pub threads: usize,
    /// Random seed: with one thread and a simulation budget, play is reproducible.
    pub seed: u64,
    /// Whether the player may resign clearly lost two-player games.
    pub resign: bool,
    /// The move policy that orders and values the tree's children.
    pub policy: PolicyChoice,
    /// How a simulation budget is spread over the game's moves; `None`: growing for a
    /// level's budget, flat for an explicit `simulations` count (see
    /// [`MctsOptions::schedule`]).
    pub schedule: Option<Schedule>,
    /// Whether to play the variant's opening book (see [`crate::book`]) where it has the
    /// position, the budget is at least [`BOOK_MIN_SIMULATIONS`] a move (the weaker
    /// levels search their openings themselves) and the move's own search would be
    /// smaller than the book's.
    pub book: bool,
}

impl MctsOptions {
    /// The schedule the search uses: the one chosen, else growing for a level (the
    /// levels were calibrated with it) and flat when `simulations` asks for a count per
    /// move.
    pub fn schedule(&self) -> Schedule {
        self.schedule.unwrap_or(if self.simulations.is_some() {
            Schedule::Flat
        } else {
            Schedule::Growing
        })
    }
}

/// Which learnt move policy a search uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PolicyChoice {
    /// The weights shipped for the variant's family (the hand prior elsewhere).
    #[default]
    Shipped,
    /// None: the hand-made prior everywhere.
    Off,
    /// These weights (read from a weight file), in every variant.
    Weights(Arc<crate::policy::Weights>),
}

impl Default for MctsOptions {
    fn default() -> MctsOptions {
        MctsOptions {
            level: 5,
            seconds: None,
            simulations: None,
            threads: 1,
            seed: 0,
            resign: true,
            policy: PolicyChoice::Shipped,
            book: true,
            schedule: None,
        }
    }
}

/// A Monte-Carlo tree search player.
pub struct MctsPlayer {
    opts: MctsOptions,
    searchers: Vec<Searcher>,
    ctx: Option<Arc<Context>>,
    rng: SmallRng,
    last_stats: SearchStats,
    pub(crate) params: Params,
}

/// One root action's statistics, summed over the search threads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RootStat {
    /// The action.
    pub action: u32,
    /// The side that chooses it.
    pub side: usize,
    /// Simulations through it.
    pub visits: u64,
    /// Sum of those simulations' values, per side: their win shares where the search's
    /// values are quality-based rewards (which are not a chance of winning).
    pub sums: [f64; MAX_SIDES],
    /// Its prior value.
    pub prior: f32,
}

impl RootStat {
    /// Mean value for a side (0.5 before any visit).
    pub fn mean(&self, side: usize) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            (self.sums[side] / self.visits as f64) as f32
        }
    }

    /// The action as a decision.
    pub fn decision(&self) -> Decision {
        match self.action {
            PIE_KEEP => Decision::Pie(PieChoice::Keep),
            PIE_SWAP => Decision::Pie(PieChoice::Swap),
            a => Decision::Place(Move::new(a as usize)),
        }
    }
}

/// The action the search prefers: most visits, then best mean for its side, then prior.
pub(crate) fn best_stat(stats: &[RootStat]) -> Option<&RootStat> {
    stats.iter().max_by(|a, b| {
        let qa = if a.visits > 0 { a.mean(a.side) } else { 0.0 };
        let qb = if b.visits > 0 { b.mean(b.side) } else { 0.0 };
        a.visits
            .cmp(&b.visits)
            .then(qa.total_cmp(&qb))
            .then(a.prior.total_cmp(&b.prior))
    })
}

/// What the last search did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Simulations run (all threads).
    pub simulations: u64,
    /// Wall-clock time.
    pub seconds: f64,
    /// The chosen action's mean value for the side to move.
    pub value: f32,
}

impl MctsPlayer {
    /// A player with these options.
    pub fn new(opts: MctsOptions) -> MctsPlayer {
        MctsPlayer::with_params(opts, Params::default())
    }

    /// A player with these options and search constants.
    pub fn with_params(opts: MctsOptions, params: Params) -> MctsPlayer {
        let threads = opts.threads.max(1);
        let searchers = (0..threads)
            .map(|i| Searcher::new(blokus_core::seed::mix(opts.seed, i as u64), params))
            .collect();
        MctsPlayer {
            rng: SmallRng::seed_from_u64(opts.seed ^ 0x5eed),
            opts,
            searchers,
            ctx: None,
            last_stats: SearchStats::default(),
            params,
        }
    }

    /// The options.
    pub fn options(&self) -> &MctsOptions {
        &self.opts
    }

    /// Sets when every thread's search stops before its budget is spent.
    pub(crate) fn set_early_stop(&mut self, stop: EarlyStop) {
        for s in &mut self.searchers {
            s.set_early_stop(stop);
        }
    }

    /// Statistics of the last decision.
    pub fn last_stats(&self) -> SearchStats {
        self.last_stats
    }

    fn context(&mut self, game: &Game) -> Arc<Context> {
        match &self.ctx {
            Some(c) if c.matches(game.rules()) => c.clone(),
            _ => {
                for s in &mut self.searchers {
                    s.clear();
                }
                let mut c = Context::new(game.rules());
                match &self.opts.policy {
                    PolicyChoice::Shipped => {}
                    PolicyChoice::Off => c.policy = None,
                    PolicyChoice::Weights(w) => c.policy = Some((**w).clone()),
                }
                let c = Arc::new(c);
                self.ctx = Some(c.clone());
                c
            }
        }
    }

    /// The limits of one search: (simulations in all, deadline).
    fn limits(&self, budget: Budget) -> (u64, Option<Duration>) {
        let seconds = budget.seconds.or(self.opts.seconds);
        let sims = budget.simulations.or(self.opts.simulations);
        let time = seconds.map(|s| Duration::from_secs_f64(s.max(0.001)));
        match (sims, time) {
            (Some(n), _) => (n.max(1), time),
            (None, Some(_)) => (u64::MAX, time),
            (None, None) => (level_simulations(self.opts.level), None),
        }
    }

    /// Runs the search from the game's position on every thread; returns the root
    /// actions' statistics summed over the threads.
    pub(crate) fn search(&mut self, game: &Game, budget: Budget) -> Vec<RootStat> {
        let ctx = self.context(game);
        let (mut sims, time) = self.limits(budget);
        if sims != u64::MAX {
            sims = self
                .opts
                .schedule()
                .simulations(sims, &ctx, game.position());
        }
        let start = Instant::now();
        let deadline = time.map(|t| start + t);
        let budget = AtomicU64::new(sims);
        let limit = Limit::new(&budget, deadline);
        // Each thread moves its own tree's root (a copy of the kept subtree) itself.
        let total: u64 = if self.searchers.len() == 1 {
            self.searchers[0].set_root(&ctx, game);
            self.searchers[0].search(&ctx, limit)
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .searchers
                    .iter_mut()
                    .map(|s| {
                        let ctx = &ctx;
                        scope.spawn(move || {
                            s.set_root(ctx, game);
                            s.search(ctx, limit)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("search thread panicked"))
                    .sum()
            })
        };
        let mut out: Vec<RootStat> = Vec::new();
        let win_shares = self.params.uses_quality_rewards(&ctx.rules);
        for s in &self.searchers {
            for (i, ch) in s.root_children().enumerate() {
                // Every thread expands the root in the same order; look up otherwise.
                let k = if out.get(i).is_some_and(|o| o.action == ch.action) {
                    i
                } else if let Some(k) = out.iter().position(|o| o.action == ch.action) {
                    k
                } else {
                    out.push(RootStat {
                        action: ch.action,
                        side: ch.side as usize,
                        visits: 0,
                        sums: [0.0; MAX_SIDES],
                        prior: ch.prior,
                    });
                    out.len() - 1
                };
                out[k].visits += ch.n as u64;
                if win_shares {
                    // Two sides: the other's share is the rest.
                    let wins = f64::from(ch.wins);
                    out[k].sums[ch.side as usize] += wins;
                    out[k].sums[1 - ch.side as usize] += f64::from(ch.n) - wins;
                } else {
                    for (sum, v) in out[k].sums.iter_mut().zip(ch.vsum) {
                        *sum += v as f64;
                    }
                }
            }
        }
        self.last_stats = SearchStats {
            simulations: total,
            seconds: start.elapsed().as_secs_f64(),
            value: 0.0,
        };
        out
    }

    /// The exact result of the position and each move's, when the endgame search
    /// finishes within its share of the move's budget (see
    /// [`Params::endgame_nodes_per_simulation`]); never for the noisy level 1.
    fn solve_endgame(&mut self, game: &Game, budget: Budget) -> Option<Solved> {
        let p = self.params;
        if p.endgame_nodes_per_simulation == 0 || self.noisy() {
            return None;
        }
        if !endgame::applies(game.rules(), game.position()) {
            return None;
        }
        let ctx = self.context(game);
        let nodes = match self.limits(budget) {
            (u64::MAX, time) => {
                let seconds = time.map_or(0.0, |t| t.as_secs_f64());
                (seconds * p.endgame_nodes_per_second) as u64
            }
            (sims, _) => {
                let sims = self
                    .opts
                    .schedule()
                    .simulations(sims, &ctx, game.position());
                sims.saturating_mul(p.endgame_nodes_per_simulation)
            }
        };
        // Most positions whose colours have legal moves P in product take fewer than
        // P²/8 positions to solve (measured on sparring games); others are not tried.
        let pos = game.position();
        let product = Colour::all(game.rules().num_colours())
            .map(|c| pos.legal_moves(game.rules(), c).len().max(1) as u64)
            .fold(1u64, u64::saturating_mul);
        if product.saturating_mul(product) > nodes.saturating_mul(8) {
            return None;
        }
        endgame::solve(game.rules(), pos, nodes)
    }

    /// The opening book's move for the game's position, when this player plays its
    /// book (see [`MctsOptions::book`]).
    fn book_move(&mut self, game: &Game, budget: Budget) -> Option<crate::book::Entry> {
        let book = crate::book::Book::shipped(game.rules())?;
        self.book_entry(book, game, budget)
    }

    /// `book`'s move for the game's position, if this player plays it with this budget:
    /// at least [`BOOK_MIN_SIMULATIONS`] a move, and less for this move (after the
    /// schedule) than the book's searches had. A search bounded by time alone, whose
    /// size is not known in advance, searches.
    fn book_entry(
        &mut self,
        book: &crate::book::Book,
        game: &Game,
        budget: Budget,
    ) -> Option<crate::book::Entry> {
        let (sims, _) = self.limits(budget);
        if !self.opts.book || self.noisy() || sims < BOOK_MIN_SIMULATIONS || sims == u64::MAX {
            return None;
        }
        let ctx = self.context(game);
        let own = self
            .opts
            .schedule()
            .simulations(sims, &ctx, game.position());
        if own >= book.simulations() {
            return None;
        }
        book.lookup(game)
    }

    /// Whether this player draws its move at random by visits (level 1).
    fn noisy(&self) -> bool {
        self.opts.level <= 1 && self.opts.simulations.is_none() && self.opts.seconds.is_none()
    }

    /// The action to play from aggregated root statistics.
    fn choose(&mut self, stats: &[RootStat]) -> u32 {
        if self.noisy() {
            // Level 1 plays noisily: a draw weighted by visits plus prior.
            let weights: Vec<f64> = stats
                .iter()
                .map(|s| s.visits as f64 + 4.0 * s.prior as f64 + 0.05)
                .collect();
            let sum: f64 = weights.iter().sum();
            let mut r = self.rng.gen_range(0.0..sum);
            for (i, w) in weights.iter().enumerate() {
                if r < *w {
                    return stats[i].action;
                }
                r -= w;
            }
        }
        best_stat(stats).expect("a root with children").action
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> String {
        let budget = match (self.opts.simulations, self.opts.seconds) {
            (Some(n), _) => format!("mcts:simulations={n}"),
            (None, Some(s)) => format!("mcts:seconds={s}"),
            _ => format!("mcts:level={}", self.opts.level),
        };
        let name = match self.opts.schedule {
            None => budget,
            Some(Schedule::Flat) => format!("{budget},schedule=flat"),
            Some(Schedule::Growing) => format!("{budget},schedule=growing"),
        };
        if self.opts.book {
            name
        } else {
            format!("{name},book=false")
        }
    }

    fn decide(&mut self, game: &Game, budget: Budget) -> Decision {
        let start = Instant::now();
        if let Some(e) = self.book_move(game, budget) {
            self.last_stats = SearchStats {
                simulations: 0,
                seconds: start.elapsed().as_secs_f64(),
                value: e.value,
            };
            return Decision::Place(e.mv);
        }
        let solved = self.solve_endgame(game, budget);
        if let Some(s) = solved.as_ref().filter(|s| s.outcome == Outcome::Win) {
            let m = s.best[0];
            self.last_stats = SearchStats {
                simulations: 0,
                seconds: start.elapsed().as_secs_f64(),
                value: 1.0,
            };
            return Decision::Place(m);
        }
        let stats = self.search(game, budget);
        let action = match &solved {
            // Whichever drawing move the search likes best (the opponent may still err).
            Some(s) if s.outcome == Outcome::Draw => {
                let drawing: Vec<RootStat> = stats
                    .iter()
                    .filter(|st| s.best.iter().any(|m| m.index() as u32 == st.action))
                    .copied()
                    .collect();
                match best_stat(&drawing) {
                    Some(st) => st.action,
                    None => s.best[0].index() as u32,
                }
            }
            _ => self.choose(&stats),
        };
        let Some(chosen) = stats.iter().find(|s| s.action == action) else {
            // A drawing move the search never listed.
            return Decision::Place(Move::new(action as usize));
        };
        let value = chosen.mean(chosen.side);
        self.last_stats.value = value;
        let rules = game.rules();
        let two_player = rules.v().players == 2 && rules.v().num_sides() == 2;
        // Resign only when every line looks lost by a clear margin, after real search.
        let p = self.params;
        if self.opts.resign
            && two_player
            && solved.is_none_or(|s| s.outcome == Outcome::Loss)
            && chosen.visits >= p.resign_min_visits
            && value < p.resign_value
        {
            return Decision::Resign;
        }
        chosen.decision()
    }

    fn rate_moves(&mut self, game: &Game, budget: Budget) -> Option<crate::Rating> {
        // A fresh search each time: the same question gets the same answer.
        self.reset();
        Some(self.rate(game, budget))
    }

    fn reset(&mut self) {
        for s in &mut self.searchers {
            s.forget_tree();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use blokus_core::Rules;

    fn player(sims: u64, early_stop: EarlyStop) -> MctsPlayer {
        let opts = MctsOptions {
            simulations: Some(sims),
            seed: 7,
            resign: false,
            // The opening book would answer the first moves without a search.
            book: false,
            ..MctsOptions::default()
        };
        let params = Params {
            early_stop,
            ..Params::default()
        };
        MctsPlayer::with_params(opts, params)
    }

    /// The first 16 placements of a Duo game played by `a`'s choices, each position also
    /// searched with `b`: per placement both decisions and both searches' statistics.
    fn both_stops(a: EarlyStop, b: EarlyStop) -> Vec<[(Decision, SearchStats); 2]> {
        let mut game = Game::new(Rules::by_name("duo").unwrap());
        let mut out = Vec::new();
        for _ in 0..16 {
            let searched = [a, b].map(|stop| {
                let mut p = player(3_000, stop);
                (p.decide(&game, Budget::default()), p.last_stats())
            });
            match searched[0].0 {
                Decision::Place(m) => game.play(m).unwrap(),
                d => panic!("{d:?}"),
            }
            out.push(searched);
        }
        out
    }

    /// Stopping once the choice cannot change plays the same move as searching on, with
    /// fewer simulations.
    #[test]
    fn early_stop_plays_the_same_move_with_fewer_simulations() {
        let mut saved = 0;
        for [(a, full), (b, early)] in both_stops(EarlyStop::Never, EarlyStop::Certain) {
            assert_eq!(a, b);
            assert_eq!(full.simulations, 3_000);
            saved += 3_000 - early.simulations;
        }
        // How much is saved depends on the seed and the search; some must be.
        assert!(saved > 1_500, "saved only {saved} simulations");
    }

    /// Stopping once the choice is likely settled stops no later than once it is certain,
    /// and far earlier where the mover is behind; it may play another move, but mostly
    /// plays the same.
    #[test]
    fn a_likely_settled_choice_stops_sooner() {
        let (mut same, mut certain_sims, mut likely_sims) = (0, 0, 0);
        let mut behind = (0, 0);
        for [(a, certain), (b, likely)] in both_stops(EarlyStop::Certain, EarlyStop::Likely) {
            let (c, l) = (certain.simulations, likely.simulations);
            assert!(l <= c, "likely {l} after certain {c}");
            same += usize::from(a == b);
            (certain_sims, likely_sims) = (certain_sims + c, likely_sims + l);
            if certain.value < 0.4 {
                behind = (behind.0 + c, behind.1 + l);
            }
        }
        assert!(same >= 12, "only {same} of 16 moves the same");
        assert!(
            likely_sims * 10 < certain_sims * 9,
            "likely {likely_sims} against certain {certain_sims}"
        );
        assert!(behind.0 > 0, "the mover was never behind");
        assert!(behind.1 * 10 < behind.0 * 8, "behind: {behind:?}");
    }

    /// In Duo the search's values are quality-based rewards, which are no chance of
    /// winning and may leave [0, 1]; what it reports and resigns by are win shares. A
    /// side far behind (greedy against random) sees every move lose and resigns.
    #[test]
    fn duo_reports_win_shares_and_resigns_a_lost_game() {
        let rules = Rules::by_name("duo").unwrap();
        assert!(reward::used_in(&rules));
        let mut game = Game::new(rules);
        let (mut strong, mut weak) = (crate::GreedyPlayer::new(1), crate::RandomPlayer::new(1));
        for _ in 0..14 {
            for p in [&mut strong as &mut dyn Player, &mut weak] {
                match p.decide(&game, Budget::default()) {
                    Decision::Place(m) => game.play(m).unwrap(),
                    d => panic!("{d:?}"),
                }
            }
        }
        let Decision::Place(m) = strong.decide(&game, Budget::default()) else {
            panic!("greedy places")
        };
        game.play(m).unwrap();
        let opts = MctsOptions {
            simulations: Some(3_000),
            seed: 3,
            ..MctsOptions::default()
        };
        let mut ai = MctsPlayer::with_params(
            opts,
            Params {
                early_stop: EarlyStop::Never,
                ..Params::default()
            },
        );
        let rating = ai.rate(&game, Budget::default());
        assert!(
            rating.moves.iter().all(|m| (0.0..=1.0).contains(&m.value)),
            "{rating:?}"
        );
        assert!(rating.best_values[1] < 0.03, "{:?}", rating.best_values);
        let d = ai.decide(&game, Budget::default());
        assert_eq!(d, Decision::Resign, "{:?}", ai.last_stats());
    }

    /// A colour's first placement is searched with the playouts of the rest of its game,
    /// so the search values its favourite reply as a search of the position after it
    /// does. In Duo, when a colour without a move list at the root played out by the
    /// drawn tries, the second colour's favourite first reply was valued at 0.14 where
    /// the position after it was worth 0.32 to it (4,000 simulations each), and long
    /// searches chose badly.
    #[test]
    fn a_first_reply_is_valued_as_the_position_after_it() {
        let rules = Rules::by_name("duo").unwrap();
        let mut game = Game::new(rules);
        game.play_text("f9,e10,f10,g10,f11").unwrap();
        let rating = player(2_000, EarlyStop::Never).rate(&game, Budget::default());
        let best = rating.moves[0];
        let Decision::Place(reply) = best.decision else {
            panic!("{best:?}")
        };
        game.play(reply).unwrap();
        let after = player(2_000, EarlyStop::Never).rate(&game, Budget::default());
        // The second colour's expected result after its reply.
        let worth = after.values[1];
        assert!(
            (best.value - worth).abs() < 0.06,
            "the reply was valued {} ({} visits), the position after it {worth}",
            best.value,
            best.visits
        );
    }

    /// From level 7 (or 2,000 simulations a move) up, a Duo player answers the
    /// positions of its opening book with the book's move at once (here the first
    /// colour's second placement); below that, or with `book=false`, it searches.
    #[test]
    fn the_opening_book_is_played_from_level_7() {
        let rules = Rules::by_name("duo").unwrap();
        let book = crate::book::Book::shipped(&rules).unwrap();
        let mut game = Game::new(rules);
        game.play(book.lookup(&game).unwrap().mv).unwrap();
        let five = |m: &Move| game.rules().table().info(*m).cells().len() == 5;
        let reply = game.legal_moves().into_iter().rev().filter(five).nth(7);
        game.play(reply.unwrap()).unwrap();
        let want = book
            .lookup(&game)
            .expect("every reply with a five-cell piece");
        let decide = |opts: MctsOptions| {
            let mut p = MctsPlayer::new(opts);
            (
                p.decide(&game, Budget::default()),
                p.last_stats().simulations,
            )
        };
        let level = |level| MctsOptions {
            level,
            ..MctsOptions::default()
        };
        assert_eq!(decide(level(7)), (Decision::Place(want.mv), 0));
        let sims = |n| MctsOptions {
            simulations: Some(n),
            ..MctsOptions::default()
        };
        assert_eq!(
            decide(sims(BOOK_MIN_SIMULATIONS)),
            (Decision::Place(want.mv), 0)
        );
        assert!(decide(level(6)).1 > 0, "level 6 searches");
        assert!(decide(sims(BOOK_MIN_SIMULATIONS - 1)).1 > 0);
        let off = MctsOptions {
            book: false,
            ..level(7)
        };
        assert!(decide(off.clone()).1 > 0, "book=false searches");
        assert!(MctsPlayer::new(off).name().ends_with(",book=false"));
    }

    /// A book move stands for a search of the book's size: a player whose own search of
    /// the move (after the schedule) would be as large searches, and so does one
    /// bounded by time alone.
    #[test]
    fn a_book_is_played_only_below_its_own_search() {
        let rules = Rules::by_name("duo").unwrap();
        let game = Game::new(rules.clone());
        let mut book = crate::book::Book::new(2_500);
        let entry = crate::book::Entry {
            mv: game.legal_moves()[3],
            value: 0.6,
        };
        book.insert(Vec::new(), entry);
        let player = |simulations: Option<u64>, seconds: Option<f64>| {
            let opts = MctsOptions {
                simulations,
                seconds,
                schedule: Some(Schedule::Flat),
                ..MctsOptions::default()
            };
            MctsPlayer::new(opts).book_entry(&book, &game, Budget::default())
        };
        assert_eq!(player(Some(2_499), None), Some(entry));
        assert_eq!(player(Some(2_500), None), None);
        assert_eq!(player(None, Some(0.5)), None);
        assert_eq!(player(Some(BOOK_MIN_SIMULATIONS - 1), None), None);
    }

    #[test]
    fn a_single_legal_move_is_played_at_once() {
        // Greedy games until the colour to move has exactly one legal move.
        let mut found = None;
        'games: for seed in 0..50 {
            let mut game = Game::new(Rules::by_name("junior").unwrap());
            let mut g = crate::GreedyPlayer::new(seed);
            while !game.is_over() {
                if game.legal_moves().len() == 1 {
                    found = Some(game);
                    break 'games;
                }
                match g.decide(&game, Budget::default()) {
                    Decision::Place(m) => game.play(m).unwrap(),
                    d => panic!("{d:?}"),
                }
            }
        }
        let game = found.expect("a position with a single legal move");
        let mut p = player(10_000, EarlyStop::Likely);
        assert_eq!(
            p.decide(&game, Budget::default()),
            Decision::Place(game.legal_moves()[0])
        );
        assert!(p.last_stats().simulations <= 16, "{:?}", p.last_stats());
    }

    /// Positions a few placements before the end of random Duo games where the exact
    /// result is `outcome` and some move falls short of it.
    fn endgames(outcome: Outcome) -> Vec<(Game, Solved)> {
        let mut found = Vec::new();
        for seed in 0..400 {
            let full = crate::endgame::tests::random_game("duo", seed);
            for back in [4, 6] {
                let mut game = full.clone();
                let n = game.events().len();
                blokus_core::record::rewind_to_move(&mut game, n - back);
                // Within the budget the player below gives the search (2,000 x 10).
                let Some(s) = endgame::solve(game.rules(), game.position(), 20_000) else {
                    continue;
                };
                let moves = game.legal_moves().len();
                if s.outcome == outcome && s.best.len() < moves {
                    found.push((game, s));
                }
            }
            if found.len() >= 4 {
                found.truncate(4);
                break;
            }
        }
        found
    }

    /// A won endgame is played by a winning move, at once; a drawn one by a drawing
    /// move, after the search (which may hope for the opponent to err).
    #[test]
    fn solved_endgames_keep_their_result() {
        for (outcome, searched) in [(Outcome::Win, false), (Outcome::Draw, true)] {
            let cases = endgames(outcome);
            assert!(cases.len() == 4, "{outcome:?}: {} positions", cases.len());
            for (game, solved) in cases {
                let mut p = player(2_000, EarlyStop::Likely);
                let Decision::Place(m) = p.decide(&game, Budget::default()) else {
                    panic!("a placement");
                };
                assert!(solved.best.contains(&m), "{outcome:?}: {m:?}");
                assert_eq!(p.last_stats().simulations > 0, searched, "{outcome:?}");
            }
        }
    }
}
