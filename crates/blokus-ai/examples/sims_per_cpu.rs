//! Development aid: simulations per CPU-second of one search (one thread, early stopping
//! off) at a position given as a file of placements, one per line, in turn order; for
//! comparing with another engine at the same positions.
//! `cargo run --release -p blokus-ai --example sims_per_cpu -- duo GAME.txt 16 20000`
use blokus_ai::mcts::Params;
use blokus_ai::{Budget, MctsOptions, MctsPlayer, Player};
use blokus_core::{Game, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: sims_per_cpu VARIANT MOVES_FILE PLACEMENTS SIMULATIONS";
    let variant = args.get(1).expect(usage);
    let text = std::fs::read_to_string(args.get(2).expect(usage)).expect("moves file");
    let placements: usize = args.get(3).expect(usage).parse().expect(usage);
    let sims: u64 = args.get(4).expect(usage).parse().expect(usage);
    let mut game = Game::new(Rules::by_name(variant).expect("variant"));
    for line in text.lines().take(placements) {
        game.play_text(line.trim()).expect("legal placement");
    }
    let params = Params {
        early_stop: false,
        ..Params::default()
    };
    let mut p = MctsPlayer::with_params(
        MctsOptions {
            simulations: Some(sims),
            ..Default::default()
        },
        params,
    );
    let start = cpu_time::ProcessTime::now();
    p.decide(&game, Budget::default());
    let cpu = start.elapsed().as_secs_f64();
    let done = p.last_stats().simulations;
    println!(
        "{variant} after {placements}: {done} simulations in {cpu:.3} CPU s: {:.0} per CPU s",
        done as f64 / cpu
    );
}
