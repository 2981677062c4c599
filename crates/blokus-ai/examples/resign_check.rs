//! Development aid: were resignations premature? For every game of a `blokus match`
//! collection that ended by resignation, plays the final position out several times with
//! a player spec (no resigning) on both sides and counts how often the side that
//! resigned still wins.
//! `cargo run --release -p blokus-ai --example resign_check -- FILE.blksgf mcts:level=6 4`
use blokus_ai::{player_from_spec, Budget, Decision};
use blokus_core::record::{blksgf, sgf};
use blokus_core::score;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("read the collection");
    let spec = args.get(2).map_or("mcts:level=6", |s| s.as_str());
    let tries: u64 = args.get(3).map_or(4, |s| s.parse().unwrap());
    let (mut resigned, mut saved) = (0, 0.0);
    for tree in sgf::parse(&text).expect("an SGF collection") {
        let re = tree.nodes[0].get("RE").unwrap_or("");
        if !re.contains("resigned") && !re.ends_with("+R") {
            continue;
        }
        let game = blksgf::from_tree(&tree).expect("a game");
        // The resigning player is the one to move.
        let loser = game.position().player_to_move(game.rules());
        resigned += 1;
        let mut wins = 0.0;
        for seed in 0..tries {
            let mut g = game.clone();
            let mut p = player_from_spec(&format!("{spec},resign=false,seed={seed}")).unwrap();
            while !g.is_over() {
                match p.decide(&g, Budget::default()) {
                    Decision::Place(m) => g.play(m).unwrap(),
                    Decision::Pie(c) => g.choose_pie(c).unwrap(),
                    Decision::Resign => unreachable!(),
                }
            }
            let side = g.rules().v().side_of_player(loser);
            wins += score::win_shares(g.rules(), g.position())[side.index()];
        }
        println!(
            "{re}: resigner's win share when played out {:.2}",
            wins / tries as f64
        );
        saved += wins / tries as f64;
    }
    println!(
        "{resigned} resignations; resigner's mean win share when played out: {:.3}",
        if resigned > 0 {
            saved / resigned as f64
        } else {
            0.0
        }
    );
}
