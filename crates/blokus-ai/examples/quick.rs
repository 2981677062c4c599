//! Development aid: simulations per second from the start of a variant, and a few games
//! between two player specs. `cargo run --release --example quick -- duo 2000 greedy mcts:level=3 4`
use blokus_ai::{player_from_spec, Budget, Decision, MctsOptions, MctsPlayer, Player};
use blokus_core::{Game, Rules};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args.get(1).map_or("duo", |s| s.as_str());
    let sims: u64 = args.get(2).map_or(2000, |s| s.parse().unwrap());
    let rules = Rules::by_name(variant).unwrap();
    let game = Game::new(rules.clone());
    let mut p = MctsPlayer::new(MctsOptions {
        simulations: Some(sims),
        ..Default::default()
    });
    let t = Instant::now();
    p.decide(&game, Budget::default());
    println!(
        "{variant}: {:.0} sims/s at start",
        sims as f64 / t.elapsed().as_secs_f64()
    );
    if args.len() < 6 {
        return;
    }
    let n: usize = args[5].parse().unwrap();
    let mut score = [0.0f64; 2];
    for g in 0..n {
        let mut players: Vec<Box<dyn Player>> = vec![
            player_from_spec(&args[3]).unwrap(),
            player_from_spec(&args[4]).unwrap(),
        ];
        let mut game = Game::new(rules.clone());
        let np = rules.v().players;
        let engine_of = |player: usize| (player + g) % 2;
        let mut resigned = None;
        while !game.is_over() {
            let pl = game.position().player_to_move(&rules);
            let e = engine_of(pl);
            match players[e].decide(&game, Budget::default()) {
                Decision::Place(m) => game.play(m).unwrap(),
                Decision::Pie(c) => game.choose_pie(c).unwrap(),
                Decision::Resign => {
                    resigned = Some(e);
                    break;
                }
            }
        }
        let shares = blokus_core::score::win_shares(&rules, game.position());
        let mut s = [0.0; 2];
        if let Some(e) = resigned {
            s[1 - e] = 1.0;
        } else {
            for pl in 0..np {
                s[engine_of(pl)] += shares[rules.v().side_of_player(pl)]
                    / if rules.v().teams.is_some() { 2.0 } else { 1.0 };
            }
        }
        score[0] += s[0];
        score[1] += s[1];
        println!(
            "game {g}: {:?} results {:?}",
            s,
            game.results().iter().map(|r| r.score).collect::<Vec<_>>()
        );
    }
    println!("{} {:.1} - {:.1} {}", args[3], score[0], score[1], args[4]);
}
