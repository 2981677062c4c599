//! Game records for download.

use blokus_core::notation::format_move;
use blokus_core::{Game, GameEvent};

/// The game as `.blksgf` text (SPEC 10).
pub fn blksgf(game: &Game) -> String {
    let rules = game.rules();
    let two = rules.num_colours() == 2;
    let mut s = format!("(;FF[4]CA[UTF-8]AP[blokus]GM[{}]", rules.v().game_name);
    for e in game.events() {
        if let GameEvent::Place { colour, mv } = *e {
            let prop = if two {
                ["B", "W"][colour].to_string()
            } else {
                (colour + 1).to_string()
            };
            s.push_str(&format!("\n;{prop}[{}]", format_move(rules.table(), mv)));
        }
    }
    s.push_str(")\n");
    s
}
