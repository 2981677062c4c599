//! WebSocket client messages as the server reads them: the typed message, then for a move
//! its cells through the rules of a game in each board family (squares, Trigon, the
//! Polyomino pie variants), never a panic.
#![no_main]

use std::sync::OnceLock;

use blokus_core::notation::parse_move;
use blokus_core::{Game, Rules};
use blokus_server::protocol::ClientMsg;
use libfuzzer_sys::fuzz_target;

fn games() -> &'static [Game] {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        ["duo", "classic", "trigon_3", "polyomino_mini"]
            .iter()
            .map(|v| Game::new(Rules::by_name(v).expect("known variant")))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(msg) = serde_json::from_slice::<ClientMsg>(data) else {
        return;
    };
    if let ClientMsg::Move { cells, .. } = msg {
        let Some(text) = cells.to_text() else {
            return;
        };
        for game in games() {
            if let Ok(mv) = parse_move(game.rules().table(), &text) {
                let mut g = game.clone();
                let _ = g.play(mv);
            }
        }
    }
});
