//! The stored text of game events, and rebuilding a game from them.
//!
//! A placement is `place <colour> <cells>` (colour index, canonical move text), a pie
//! choice `pie keep` or `pie swap`, a player out of time `timeout <player>`. Text rather
//! than move ids, so stored games survive changes of the move tables. A Blokus 3D
//! placement is `place <colour> <cubes>` (`place 0 a1.1,b1.1`).

use blokus_core::cube::{notation as cube_notation, CubeGame, CubeMove};
use blokus_core::notation::{format_move, parse_move};
use blokus_core::{Colour, Game, GameEvent, PieChoice, PlayerId, RuleOptions, Rules};

/// The stored text of an event.
pub fn encode(game: &Game, e: &GameEvent) -> String {
    match *e {
        GameEvent::Place { colour, mv } => {
            format!(
                "place {} {}",
                colour.index(),
                format_move(game.rules().table(), mv)
            )
        }
        GameEvent::Pie(PieChoice::Keep) => "pie keep".into(),
        GameEvent::Pie(PieChoice::Swap) => "pie swap".into(),
        GameEvent::TimeOut { player } => format!("timeout {}", player.index()),
    }
}

/// The stored text of a 3D placement.
pub fn encode_cube(game: &CubeGame, colour: Colour, m: CubeMove) -> String {
    format!(
        "place {} {}",
        colour.index(),
        cube_notation::format_move(game.rules().table(), m)
    )
}

/// Replays a stored 3D event.
///
/// # Errors
/// A text that is no placement, by another colour than the one to move, or illegal.
pub fn apply_cube(game: &mut CubeGame, text: &str) -> Result<(), String> {
    let mut parts = text.splitn(3, ' ');
    let (Some("place"), Some(colour), Some(cubes)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err("unknown event".into());
    };
    let colour: usize = colour.parse().map_err(|_| "bad colour".to_string())?;
    if game.is_over() || colour != game.to_move().index() {
        return Err(format!("colour {colour} is not to move"));
    }
    game.play_text(cubes).map(|_| ()).map_err(|e| e.to_string())
}

/// Rebuilds a game from its variant, options and stored events.
///
/// # Errors
/// A message naming the first event that cannot be replayed.
pub fn rebuild(variant: &str, options: &str, events: &[String]) -> Result<Game, String> {
    let v = blokus_core::variant(variant).map_err(|e| e.to_string())?;
    let options: RuleOptions =
        serde_json::from_str(options).map_err(|e| format!("bad stored options: {e}"))?;
    let mut game = Game::new(Rules::new(v, options));
    for (n, text) in events.iter().enumerate() {
        apply(&mut game, text).map_err(|e| format!("event {n} '{text}': {e}"))?;
    }
    Ok(game)
}

fn apply(game: &mut Game, text: &str) -> Result<(), String> {
    let mut parts = text.splitn(3, ' ');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("place"), Some(colour), Some(cells)) => {
            let colour: usize = colour.parse().map_err(|_| "bad colour".to_string())?;
            let mv = parse_move(game.rules().table(), cells).map_err(|e| e.to_string())?;
            game.play_as(Colour::new(colour), mv)
                .map_err(|e| e.to_string())
        }
        (Some("pie"), Some("keep"), None) => {
            game.choose_pie(PieChoice::Keep).map_err(|e| e.to_string())
        }
        (Some("pie"), Some("swap"), None) => {
            game.choose_pie(PieChoice::Swap).map_err(|e| e.to_string())
        }
        (Some("timeout"), Some(player), None) => {
            let p: usize = player.parse().map_err(|_| "bad player".to_string())?;
            if p >= game.rules().v().players {
                return Err(format!("no player {p}"));
            }
            game.time_out(PlayerId::new(p)).map_err(|e| e.to_string())
        }
        _ => Err("unknown event".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_round_trip() {
        let mut g = Game::new(Rules::by_name("duo").unwrap());
        g.play_text("d9,c10,d10,e10,d11").unwrap();
        g.play_text("i4,h5,i5,j5,i6").unwrap();
        let texts: Vec<String> = g.events().iter().map(|e| encode(&g, e)).collect();
        assert_eq!(texts[0], "place 0 d9,c10,d10,e10,d11");
        let back = rebuild("duo", "{}", &texts).unwrap();
        assert_eq!(back.position(), g.position());
        assert!(rebuild("duo", "{}", &["place 0 a1".into()]).is_err());
        assert!(rebuild("nope", "{}", &[]).is_err());
        g.time_out(PlayerId::new(1)).unwrap();
        let texts: Vec<String> = g.events().iter().map(|e| encode(&g, e)).collect();
        assert_eq!(texts[2], "timeout 1");
        let back = rebuild("duo", "{}", &texts).unwrap();
        assert!(back.is_over() && back.position() == g.position());
        assert!(rebuild("duo", "{}", &["timeout 2".into()]).is_err());
    }
}
