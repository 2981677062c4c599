//! Runs random playouts from the start of a variant (for profiling):
//! `cargo run --release -p blokus-core --example playouts -- duo 1000`.

use blokus_core::playout::Playout;
use blokus_core::{Position, Rules};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = args.get(1).map_or("duo", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let rules = Rules::by_name(id).expect("variant");
    let start = Position::new(&rules);
    let mut p = Playout::new(&rules);
    let mut rng = SmallRng::seed_from_u64(1);
    let t = std::time::Instant::now();
    let mut moves = 0;
    for _ in 0..n {
        let mut pos = start.clone();
        moves += p.run(&rules, &mut pos, &mut rng);
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{id}: {n} playouts, {:.1} moves each, {:.0} playouts/s",
        moves as f64 / n as f64,
        n as f64 / s
    );
}
