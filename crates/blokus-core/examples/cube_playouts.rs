//! Runs four-player Blokus 3D random playouts on a site (for profiling and
//! instruction counts): `cargo run --release -p blokus-core --example cube_playouts -- plaza 1000`.

use blokus_core::cube::{CubePlayout, CubePosition, CubeRules, Seating, Site};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let site = args.get(1).map_or("plaza", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let rules = CubeRules::new(Seating::Four, Site::builtin(site).expect("a built-in site"));
    let start = CubePosition::new(&rules);
    let mut playout = CubePlayout::new(&rules);
    let mut rng = SmallRng::seed_from_u64(1);
    let t = std::time::Instant::now();
    let mut moves = 0;
    for _ in 0..n {
        moves += playout.run(&rules, &mut start.clone(), &mut rng);
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{site}: {n} playouts, {:.1} moves each, {:.0} playouts/s",
        moves as f64 / n as f64,
        n as f64 / s
    );
}
