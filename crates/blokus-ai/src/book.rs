//! Opening books: the move a long search of our own chose in each of a variant's first
//! positions, shipped as data and played at once (no search, no thinking time).
//!
//! A book's text starts with `simulations N`, the simulations each position was searched
//! with, then has one entry per line, `PLACEMENTS : MOVE VALUE`: the placements that
//! lead to the position from the start (space-separated move texts, none for the empty
//! board), the move to play there and the search's value of it for the mover (its
//! share of the win). `#` starts a comment line. `examples/make_book.rs` writes one.
//!
//! A book move stands for a search of `N` simulations: a player whose own search of
//! the move would be as large searches instead (a longer search chooses better; in
//! Duo against the reference's level 7, the 30,000-simulation book lost to the
//! player's own 40,000- and 73,000-simulation searches of those placements).

use std::collections::HashMap;
use std::sync::OnceLock;

use blokus_core::notation::format_move;
use blokus_core::{Game, GameEvent, Move, Rules, VariantId};

/// The book shipped for Duo.
const DUO_TEXT: &str = include_str!("../data/book-duo.txt");

/// Moves by the placements that led to their position.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    /// The simulations each position was searched with.
    simulations: u64,
    entries: HashMap<Vec<Move>, Entry>,
}

/// One position's book move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The move to play.
    pub mv: Move,
    /// The search's value of the move for the mover (its share of the win).
    pub value: f32,
}

impl Book {
    /// An empty book of positions searched with `simulations` each.
    pub fn new(simulations: u64) -> Book {
        Book {
            simulations,
            entries: HashMap::new(),
        }
    }

    /// The simulations each position was searched with.
    pub fn simulations(&self) -> u64 {
        self.simulations
    }

    /// The book shipped for games of these rules (the variant's own rules, no options):
    /// Duo's, none elsewhere.
    pub fn shipped(rules: &Rules) -> Option<&'static Book> {
        static DUO: OnceLock<Book> = OnceLock::new();
        if rules.options != Default::default() {
            return None;
        }
        match rules.v().id {
            VariantId::Duo => Some(DUO.get_or_init(|| {
                Book::parse(rules, DUO_TEXT).expect("the shipped Duo book parses")
            })),
            _ => None,
        }
    }

    /// Reads a book for games of `rules`. Every entry's placements must be legal in
    /// turn from the start, and so must its move.
    ///
    /// # Errors
    /// The line and what is wrong with it.
    pub fn parse(rules: &Rules, text: &str) -> Result<Book, String> {
        let mut book: Option<Book> = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = |e: String| format!("book line {}: {e}", i + 1);
            let Some(book) = book.as_mut() else {
                let n = line
                    .strip_prefix("simulations ")
                    .and_then(|n| n.trim().parse().ok())
                    .filter(|&n: &u64| n > 0)
                    .ok_or_else(|| at("expected 'simulations N' (N > 0) first".into()))?;
                book = Some(Book::new(n));
                continue;
            };
            let (path, answer) = line
                .split_once(':')
                .ok_or_else(|| at("expected 'PLACEMENTS : MOVE VALUE'".into()))?;
            let mut game = Game::new(rules.clone());
            let mut key = Vec::new();
            for text in path.split_whitespace() {
                let m = game
                    .play_text(text)
                    .map_err(|e| at(format!("'{text}': {e}")))?;
                key.push(m);
            }
            let mut words = answer.split_whitespace();
            let (Some(mv), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(at("expected a move and its value after ':'".into()));
            };
            let mv = game.play_text(mv).map_err(|e| at(format!("'{mv}': {e}")))?;
            let value: f32 = value
                .parse()
                .ok()
                .filter(|v: &f32| (0.0..=1.0).contains(v))
                .ok_or_else(|| at(format!("value '{value}' is not a number in 0..1")))?;
            if book.entries.insert(key, Entry { mv, value }).is_some() {
                return Err(at("a second entry for the same position".into()));
            }
        }
        book.ok_or_else(|| "the book is empty: expected 'simulations N' first".into())
    }

    /// The book's text (entries sorted by their placements' text).
    pub fn to_text(&self, rules: &Rules) -> String {
        let t = rules.table();
        let mut lines: Vec<String> = self
            .entries
            .iter()
            .map(|(path, e)| {
                let path: Vec<String> = path.iter().map(|&m| format_move(t, m)).collect();
                format!(
                    "{} : {} {:.3}",
                    path.join(" "),
                    format_move(t, e.mv),
                    e.value
                )
                .trim_start()
                .to_string()
            })
            .collect();
        lines.sort();
        format!("simulations {}\n{}\n", self.simulations, lines.join("\n"))
    }

    /// Adds (or replaces) the entry of the position after `path`.
    pub fn insert(&mut self, path: Vec<Move>, entry: Entry) {
        self.entries.insert(path, entry);
    }

    /// Keeps the entries whose placements `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&[Move]) -> bool) {
        self.entries.retain(|path, _| keep(path));
    }

    /// Number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's move in the game's position, if the game reached it by placements
    /// alone (no pie choice, no time-out) along a path the book knows.
    pub fn lookup(&self, game: &Game) -> Option<Entry> {
        let mut path = Vec::with_capacity(game.events().len());
        for e in game.events() {
            match *e {
                GameEvent::Place { mv, .. } => path.push(mv),
                _ => return None,
            }
        }
        self.entries.get(&path).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duo() -> Rules {
        Rules::by_name("duo").unwrap()
    }

    /// The shipped book parses (every placement legal) and answers both colours'
    /// openings: the empty board; after the first colour's move there, every reply
    /// with a five-cell piece; and for the second colour, every first placement with a
    /// five-cell piece. Nothing deeper. It writes back to the same text.
    #[test]
    fn the_shipped_duo_book_answers_both_colours_openings() {
        let rules = duo();
        let book = Book::shipped(&rules).expect("a Duo book");
        assert!(book.entries.keys().all(|path| path.len() <= 2));
        let t = rules.table();
        let fives = |game: &Game| -> Vec<Move> {
            game.legal_moves()
                .into_iter()
                .filter(|&m| t.info(m).cells().len() == 5)
                .collect()
        };
        let mut game = Game::new(rules.clone());
        for m in fives(&game) {
            game.play(m).unwrap();
            assert!(
                book.lookup(&game).is_some(),
                "reply to {}",
                format_move(t, m)
            );
            game.undo().unwrap();
        }
        let first = book.lookup(&game).expect("the empty board");
        game.play(first.mv).unwrap();
        let replies = fives(&game);
        assert!(replies.len() > 100, "{}", replies.len());
        for m in replies {
            game.play(m).unwrap();
            assert!(book.lookup(&game).is_some(), "{}", format_move(t, m));
            game.undo().unwrap();
        }
        assert_eq!(Book::parse(&rules, &book.to_text(&rules)).unwrap(), *book);
        let mut with_options = rules.clone();
        with_options.options.no_mirror_opening = true;
        assert!(Book::shipped(&with_options).is_none());
        assert!(Book::shipped(&Rules::by_name("classic_2").unwrap()).is_none());
    }

    #[test]
    fn bad_books_name_the_line_and_the_problem() {
        let rules = duo();
        let cases = [
            ("", "the book is empty: expected 'simulations N' first"),
            (
                ": e10 0.5",
                "book line 1: expected 'simulations N' (N > 0) first",
            ),
            (
                "simulations 0",
                "book line 1: expected 'simulations N' (N > 0) first",
            ),
            ("simulations 9\ne10", "expected 'PLACEMENTS : MOVE VALUE'"),
            ("simulations 9\n: e10,g10 0.5", "'e10,g10'"),
            (
                "# fine\nsimulations 9\n: e10 0.5 x",
                "book line 3: expected a move and its value",
            ),
            (
                "simulations 9\n: e10 1.5",
                "value '1.5' is not a number in 0..1",
            ),
            ("simulations 9\na1 : e10 0.5", "book line 2: 'a1'"),
            (
                "simulations 9\n: e10 0.5\n : e10 0.4",
                "book line 3: a second entry",
            ),
        ];
        for (text, want) in cases {
            let err = Book::parse(&rules, text).unwrap_err();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }

    /// A game reached through a pie choice or along another path is not in the book.
    #[test]
    fn lookups_follow_the_placements_exactly() {
        let rules = duo();
        let mut book = Book::new(100);
        let mut game = Game::new(rules.clone());
        let first = game.play_text("e10").unwrap();
        let reply = Entry {
            mv: game.legal_moves()[0],
            value: 0.5,
        };
        book.insert(vec![first], reply);
        assert_eq!(book.lookup(&game), Some(reply));
        game.undo().unwrap();
        assert_eq!(book.lookup(&game), None);
        game.play_text("e10,e11").unwrap();
        assert_eq!(book.lookup(&game), None);
    }
}
