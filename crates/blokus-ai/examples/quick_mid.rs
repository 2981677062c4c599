//! Development aid for profiling: simulations per second of one search after some greedy
//! placements. `cargo run --release -p blokus-ai --example quick_mid -- duo 16 20000 [threads]`
use blokus_ai::{Budget, Decision, GreedyPlayer, MctsOptions, MctsPlayer, Player};
use blokus_core::{Game, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).map_or("duo", |s| s.as_str());
    let placements: usize = args.get(2).map_or(16, |s| s.parse().unwrap());
    let sims: u64 = args.get(3).map_or(20000, |s| s.parse().unwrap());
    let threads: usize = args.get(4).map_or(1, |s| s.parse().unwrap());
    let mut game = Game::new(Rules::by_name(variant).unwrap());
    let mut g = GreedyPlayer::new(3);
    while game.moves().count() < placements {
        let Decision::Place(m) = g.decide(&game, Budget::default()) else {
            break;
        };
        game.play(m).unwrap();
    }
    let mut p = MctsPlayer::new(MctsOptions {
        simulations: Some(sims),
        threads,
        // Searched, not answered from the opening book.
        book: false,
        ..Default::default()
    });
    let t = Instant::now();
    p.decide(&game, Budget::default());
    println!(
        "{variant} after {placements}: {:.0} sims/s",
        sims as f64 / t.elapsed().as_secs_f64()
    );
}
