//! Development aid: fits the weights of the learnt move policy (`src/policy.rs`) to the
//! moves of game records, and reports how well it predicts held-out moves next to the
//! hand-made prior of the tree search.
//!
//! `cargo run --release -p blokus-ai --example train_policy -- [--drop F,...]
//! [--compare WEIGHTS.txt] [--reference-side] FAMILY OUT.txt GAMES.blksgf...`
//!
//! `--drop` leaves features out (their weights stay 0), to measure what they add.
//! `--compare` also reports how another weight file (say the shipped one) predicts the
//! same held-out moves.
//! FAMILY is `duo`, `classic` or `trigon` (only games of that family are used); every
//! placement of every game is a sample: the position before it, all legal moves of the
//! colour to move, and the one played. One game in ten is held out. The fit maximises
//! the log-likelihood of the played moves under a softmax over the moves' feature
//! vectors (full-batch gradient ascent with Adam, a small L2 penalty).
use blokus_ai::policy::training::{fit, log_likelihood, Samples};
use blokus_ai::policy::{PolicyFamily, PolicyFeatures, Weights, FEATURES};
use blokus_ai::{Context, MoveScorer};
use blokus_core::record::{blksgf, sgf};
use blokus_core::GameEvent;

/// Training samples plus the hand prior's score of every move, for comparison.
#[derive(Default)]
struct Data {
    samples: Samples,
    /// The hand prior's score of every legal move.
    hand: Vec<f32>,
}

fn main() {
    let mut args: Vec<String> = std::env::args().collect();
    let usage = "usage: train_policy [--drop F,...] [--compare WEIGHTS.txt] [--reference-side] \
                 duo|classic|trigon OUT.txt GAMES.blksgf...";
    let mut dropped = Vec::new();
    if args.get(1).map(String::as_str) == Some("--drop") {
        let names = args.get(2).expect(usage).clone();
        for name in names.split(',') {
            let i = FEATURES
                .iter()
                .position(|&f| f == name)
                .unwrap_or_else(|| panic!("unknown feature '{name}' (known: {FEATURES:?})"));
            dropped.push(i);
        }
        args.drain(1..3);
    }
    let mut compare = None;
    if args.get(1).map(String::as_str) == Some("--compare") {
        let file = args.get(2).expect(usage).clone();
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let w = Weights::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        compare = Some((file, w));
        args.drain(1..3);
    }
    // With `--reference-side`, each GAMES.blksgf is a sparring record of `scripts/spar.sh`
    // and only the reference engine's placements are samples: its GAMES.dat (the match
    // tool's table) tells per game which seat we played.
    let reference_side = args.get(1).map(String::as_str) == Some("--reference-side");
    if reference_side {
        args.remove(1);
    }
    let family = match args.get(1).map(String::as_str) {
        Some("duo") => PolicyFamily::Duo,
        Some("classic") => PolicyFamily::Classic,
        Some("trigon") => PolicyFamily::Trigon,
        _ => panic!("{usage}"),
    };
    let out = args.get(2).expect(usage);
    let (mut train, mut test) = (Data::default(), Data::default());
    let mut games = 0usize;
    for file in &args[3..] {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let trees = sgf::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        // By game number (the table's first column, the record's order): the reference's
        // player, the second if we played first (the fourth column, 0) and else the first.
        let mut reference_player = std::collections::HashMap::<usize, usize>::new();
        if reference_side {
            let dat = file.trim_end_matches(".blksgf").to_string() + ".dat";
            let table = std::fs::read_to_string(&dat).unwrap_or_else(|e| panic!("{dat}: {e}"));
            for line in table.lines().filter(|l| !l.starts_with('#')) {
                let cols: Vec<&str> = line.split_whitespace().collect();
                if let (Some(Ok(game)), Some(&seat)) =
                    (cols.first().map(|g| g.parse()), cols.get(3))
                {
                    reference_player.insert(game, usize::from(seat == "0"));
                }
            }
        }
        for (index, tree) in trees.iter().enumerate() {
            // The player whose placements are samples (`None`: every player's).
            let learnt = match reference_player.get(&index) {
                Some(&p) => Some(p),
                None if reference_side => continue,
                None => None,
            };
            let game = match blksgf::from_tree(tree) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{file}: game skipped: {e}");
                    continue;
                }
            };
            if PolicyFamily::of(game.rules()) != Some(family) {
                continue;
            }
            let ctx = Context::new(game.rules());
            let into = if games % 10 == 9 {
                &mut test
            } else {
                &mut train
            };
            games += 1;
            let mut recent = Vec::new();
            for (i, e) in game.events().iter().enumerate() {
                let GameEvent::Place { colour, mv } = *e else {
                    continue;
                };
                let before = recent.len();
                recent.push((colour.index(), mv));
                let pos = game.position_at(i).expect("position before each event");
                if pos.to_move() != colour {
                    continue;
                }
                if learnt.is_some_and(|p| pos.player_of(&ctx.rules, colour).index() != p) {
                    continue;
                }
                let legal = pos.legal_moves(&ctx.rules, colour);
                if legal.len() < 2 {
                    continue;
                }
                let scorer = MoveScorer::new(&ctx, pos);
                let pf = PolicyFeatures::new(&ctx, pos, &scorer, &recent[..before]);
                let played = legal.iter().position(|&m| m == mv).expect("a legal move");
                let features = |m| {
                    let mut x = pf.features(m);
                    for &i in &dropped {
                        x[i] = 0.0;
                    }
                    x
                };
                into.samples
                    .push(legal.iter().map(|&m| features(m)), played);
                into.hand
                    .extend(legal.iter().map(|&m| scorer.prior_score(m)));
            }
        }
    }
    eprintln!(
        "{games} games: {} training positions ({} moves), {} held out",
        train.samples.positions.len(),
        train.samples.x.len(),
        test.samples.positions.len()
    );
    let w = fit(&train.samples, 1000, |step, ll| {
        if step % 100 == 0 {
            eprintln!("step {step}: mean log-likelihood {ll:.4}");
        }
    });
    let s = &test.samples;
    report("learnt policy", s, |i| w.log_gamma(&s.x[i]));
    if let Some((file, c)) = &compare {
        report(file, s, |i| c.log_gamma(&s.x[i]));
    }
    let t = best_temperature(&train);
    report(&format!("hand prior (temperature {t})"), s, |i| {
        test.hand[i] / t
    });
    let header = format!(
        "# Learnt move policy for the {} family: {} games, {} positions{} (train_policy).\n",
        family.name(),
        games,
        train.samples.positions.len() + test.samples.positions.len(),
        if reference_side {
            ", the reference engine's placements"
        } else {
            ""
        }
    );
    std::fs::write(out, header + &w.to_text()).expect("write the weights");
}

/// The temperature at which the hand prior's softmax fits the training moves best.
fn best_temperature(d: &Data) -> f32 {
    [0.25f32, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0]
        .into_iter()
        .map(|t| (log_likelihood(&d.samples, |i| d.hand[i] / t).0, t))
        .fold((f64::MIN, 1.0), |a, b| if b.0 > a.0 { b } else { a })
        .1
}

/// Held-out figures: mean log-likelihood, top-1 and top-5 accuracy, mean rank.
fn report(name: &str, s: &Samples, logit: impl Fn(usize) -> f32 + Copy) {
    let (ll, _) = log_likelihood(s, logit);
    let (mut top1, mut top5, mut rank_sum) = (0usize, 0usize, 0f64);
    for p in 0..s.positions.len() {
        let played = logit(s.positions[p].2);
        let better = s.moves(p).filter(|&i| logit(i) > played).count();
        top1 += usize::from(better == 0);
        top5 += usize::from(better < 5);
        rank_sum += (better + 1) as f64;
    }
    let n = s.positions.len().max(1) as f64;
    println!(
        "{name}: held-out mean log-likelihood {ll:.3}, top-1 {:.1}%, top-5 {:.1}%, mean rank {:.1} ({} positions)",
        100.0 * top1 as f64 / n,
        100.0 * top5 as f64 / n,
        rank_sum / n,
        s.positions.len()
    );
}
