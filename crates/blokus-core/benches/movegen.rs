//! Move generation and random playout speed (issue targets: Duo ≥ 60,000 playouts/s,
//! Classic ≥ 15,000/s, Trigon ≥ 6,000/s on one thread).

// criterion_group! generates an undocumented function.
#![allow(missing_docs)]

use blokus_core::playout::Playout;
use blokus_core::{Position, Rules};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::SmallRng;
use rand::SeedableRng;

/// A mid-game position: `moves` random placements from the start, fixed seed.
fn midgame(rules: &Rules, moves: usize) -> Position {
    let mut rng = SmallRng::seed_from_u64(42);
    let mut pos = Position::new(rules);
    for _ in 0..moves {
        let legal = pos.legal_moves(rules, pos.to_move());
        if pos.is_over() || legal.is_empty() {
            break;
        }
        pos.play(rules, legal[rand::Rng::gen_range(&mut rng, 0..legal.len())]);
    }
    pos
}

fn legal_moves(c: &mut Criterion) {
    let mut g = c.benchmark_group("legal_moves");
    for id in ["duo", "classic", "trigon"] {
        let rules = Rules::by_name(id).unwrap();
        let plies = if id == "duo" { 12 } else { 24 };
        for (phase, pos) in [
            ("start", Position::new(&rules)),
            ("mid", midgame(&rules, plies)),
        ] {
            let colour = pos.to_move();
            g.bench_with_input(BenchmarkId::new(id, phase), &pos, |b, pos| {
                b.iter(|| pos.legal_moves(&rules, colour).len())
            });
        }
    }
    g.finish();
}

fn playouts(c: &mut Criterion) {
    let mut g = c.benchmark_group("random_playout");
    g.throughput(Throughput::Elements(1));
    for id in ["duo", "classic", "trigon_2", "polyomino_hexa"] {
        let rules = Rules::by_name(id).unwrap();
        let start = Position::new(&rules);
        let mut scratch = Playout::new(&rules);
        let mut rng = SmallRng::seed_from_u64(7);
        g.bench_function(id, |b| {
            b.iter(|| {
                let mut pos = start.clone();
                scratch.run(&rules, &mut pos, &mut rng)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, legal_moves, playouts);
criterion_main!(benches);
