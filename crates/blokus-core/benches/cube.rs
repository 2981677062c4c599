//! Blokus 3D: legal-move listing and random playout speed, one thread.

// criterion_group! generates an undocumented function.
#![allow(missing_docs)]

use blokus_core::cube::{
    CubeGame, CubePlayout, CubePosition, CubeRules, Seating, Site, BUILTIN_SITES,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A mid-game position: `moves` random placements from the start, fixed seed.
fn midgame(rules: &CubeRules, moves: usize) -> CubePosition {
    let mut rng = SmallRng::seed_from_u64(42);
    let mut game = CubeGame::new(rules.clone());
    for _ in 0..moves {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(legal[rng.gen_range(0..legal.len())]).unwrap();
    }
    *game.position()
}

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("cube_legal_moves");
    let rules = CubeRules::new(Seating::Four, Site::builtin("plaza").unwrap());
    let pos = midgame(&rules, 16);
    g.bench_function("plaza_4_mid", |b| {
        b.iter(|| pos.legal_moves(rules.table(), pos.to_move()).len())
    });
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("cube_random_playout");
    g.throughput(Throughput::Elements(1));
    for site in BUILTIN_SITES {
        let rules = CubeRules::new(Seating::Four, Site::builtin(site).unwrap());
        let start = CubePosition::new(&rules);
        let mut playout = CubePlayout::new(&rules);
        let mut rng = SmallRng::seed_from_u64(1);
        g.bench_function(BenchmarkId::new("4_players", site), |b| {
            b.iter(|| {
                let mut pos = start;
                playout.run(&rules, &mut pos, &mut rng)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, legal_moves, playouts);
criterion_main!(benches);
