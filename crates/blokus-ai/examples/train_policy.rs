//! Development aid: fits the weights of the learnt move policy (`src/policy.rs`) to the
//! moves of game records, and reports how well it predicts held-out moves next to the
//! hand-made prior of the tree search.
//!
//! `cargo run --release -p blokus-ai --example train_policy -- FAMILY OUT.txt GAMES.blksgf...`
//!
//! FAMILY is `duo`, `classic` or `trigon` (only games of that family are used); every
//! placement of every game is a sample: the position before it, all legal moves of the
//! colour to move, and the one played. One game in ten is held out. The fit maximises
//! the log-likelihood of the played moves under a softmax over the moves' feature
//! vectors (full-batch gradient ascent with Adam, a small L2 penalty).
use blokus_ai::policy::{FeatureVec, PolicyFamily, PolicyFeatures, Weights, NUM_FEATURES};
use blokus_ai::{Context, MoveScorer};
use blokus_core::record::{blksgf, sgf};
use blokus_core::GameEvent;

/// The samples of many positions, flattened.
#[derive(Default)]
struct Samples {
    /// Every legal move's features.
    x: Vec<FeatureVec>,
    /// The hand prior's score of every legal move.
    hand: Vec<f32>,
    /// Per position: the range of its moves in `x`, and the index of the move played.
    positions: Vec<(usize, usize, usize)>,
}

impl Samples {
    fn moves(&self, p: usize) -> std::ops::Range<usize> {
        self.positions[p].0..self.positions[p].1
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: train_policy duo|classic|trigon OUT.txt GAMES.blksgf...";
    let family = match args.get(1).map(String::as_str) {
        Some("duo") => PolicyFamily::Duo,
        Some("classic") => PolicyFamily::Classic,
        Some("trigon") => PolicyFamily::Trigon,
        _ => panic!("{usage}"),
    };
    let out = args.get(2).expect(usage);
    let (mut train, mut test) = (Samples::default(), Samples::default());
    let mut games = 0usize;
    for file in &args[3..] {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let trees = sgf::parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        for tree in &trees {
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
            for (i, e) in game.events().iter().enumerate() {
                let GameEvent::Place { colour, mv } = *e else {
                    continue;
                };
                let pos = game.position_at(i).expect("position before each event");
                if pos.to_move() != colour {
                    continue;
                }
                let legal = pos.legal_moves(&ctx.rules, colour);
                if legal.len() < 2 {
                    continue;
                }
                let pf = PolicyFeatures::new(&ctx, pos);
                let scorer = MoveScorer::new(&ctx, pos);
                let start = into.x.len();
                let mut played = usize::MAX;
                for &m in &legal {
                    if m == mv {
                        played = into.x.len();
                    }
                    into.x.push(pf.features(m));
                    into.hand.push(scorer.prior_score(m));
                }
                assert!(played != usize::MAX, "the played move is legal");
                into.positions.push((start, into.x.len(), played));
            }
        }
    }
    eprintln!(
        "{games} games: {} training positions ({} moves), {} held out",
        train.positions.len(),
        train.x.len(),
        test.positions.len()
    );
    let w = fit(&train);
    report("learnt policy", &test, |i| w.log_gamma(&test.x[i]));
    let t = best_temperature(&train);
    report(&format!("hand prior (temperature {t})"), &test, |i| {
        test.hand[i] / t
    });
    let header = format!(
        "# Learnt move policy for the {} family: {} games, {} positions (train_policy).\n",
        family.name(),
        games,
        train.positions.len() + test.positions.len()
    );
    std::fs::write(out, header + &w.to_text()).expect("write the weights");
}

/// Log-likelihood of the played moves (mean per position) and its gradient.
fn log_likelihood(s: &Samples, logit: impl Fn(usize) -> f32) -> (f64, Vec<f64>) {
    let mut ll = 0.0;
    let mut grad = vec![0.0f64; NUM_FEATURES];
    let mut z = Vec::new();
    for p in 0..s.positions.len() {
        let r = s.moves(p);
        z.clear();
        z.extend(r.clone().map(|i| logit(i) as f64));
        let max = z.iter().cloned().fold(f64::MIN, f64::max);
        let sum: f64 = z.iter().map(|v| (v - max).exp()).sum();
        let played = s.positions[p].2;
        ll += z[played - r.start] - max - sum.ln();
        for (k, i) in r.clone().enumerate() {
            let prob = (z[k] - max).exp() / sum;
            for (g, &x) in grad.iter_mut().zip(&s.x[i]) {
                *g -= prob * x as f64;
            }
        }
        for (g, &x) in grad.iter_mut().zip(&s.x[played]) {
            *g += x as f64;
        }
    }
    let n = s.positions.len().max(1) as f64;
    (ll / n, grad.into_iter().map(|g| g / n).collect())
}

/// Adam on the mean log-likelihood with an L2 penalty.
fn fit(s: &Samples) -> Weights {
    const STEPS: usize = 1000;
    const RATE: f64 = 0.05;
    const L2: f64 = 1e-4;
    let mut w = [0f64; NUM_FEATURES];
    let (mut m, mut v) = ([0f64; NUM_FEATURES], [0f64; NUM_FEATURES]);
    for step in 1..=STEPS {
        let wf = Weights(w.map(|x| x as f32));
        let (ll, grad) = log_likelihood(s, |i| wf.log_gamma(&s.x[i]));
        if step % 50 == 0 || step == 1 {
            eprintln!("step {step}: mean log-likelihood {ll:.4}");
        }
        for k in 0..NUM_FEATURES {
            let g = grad[k] - 2.0 * L2 * w[k];
            m[k] = 0.9 * m[k] + 0.1 * g;
            v[k] = 0.999 * v[k] + 0.001 * g * g;
            let mh = m[k] / (1.0 - 0.9f64.powi(step as i32));
            let vh = v[k] / (1.0 - 0.999f64.powi(step as i32));
            w[k] += RATE * mh / (vh.sqrt() + 1e-8);
        }
    }
    Weights(w.map(|x| x as f32))
}

/// The temperature at which the hand prior's softmax fits the training moves best.
fn best_temperature(s: &Samples) -> f32 {
    [0.25f32, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0]
        .into_iter()
        .map(|t| (log_likelihood(s, |i| s.hand[i] / t).0, t))
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
