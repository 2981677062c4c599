//! A game: rules, the current position, and its history with undo.

use crate::ids::Colour;
use crate::movetable::Move;
use crate::notation::{self, NotationError};
use crate::position::{Illegal, IllegalDisplay, PieChoice, Position};
use crate::rules::Rules;
use crate::score;
use crate::PlayerId;

/// One step of a game's history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// A colour placed a piece.
    Place {
        /// The colour.
        colour: Colour,
        /// The placement.
        mv: Move,
    },
    /// The pie choice of the Polyomino variants.
    Pie(PieChoice),
    /// A player's time ran out (see [`Position::time_out`] for what follows).
    TimeOut {
        /// The player.
        player: PlayerId,
    },
}

/// Why an action on a game was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move text is malformed.
    Notation(NotationError),
    /// The placement breaks a rule (the message names the cell where it can).
    Illegal {
        /// The rule broken.
        reason: Illegal,
        /// The reason for people.
        message: String,
    },
    /// No pie choice is pending.
    NoPieChoice,
    /// There is nothing to undo.
    NothingToUndo,
    /// The game is already over.
    GameOver,
    /// The variant has no such player.
    NoSuchPlayer(PlayerId),
    /// The player's time has already run out.
    AlreadyTimedOut(PlayerId),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Notation(e) => write!(f, "{e}"),
            GameError::Illegal { message, .. } => write!(f, "illegal move: {message}"),
            GameError::NoPieChoice => write!(f, "no pie choice is pending"),
            GameError::NothingToUndo => write!(f, "nothing to undo"),
            GameError::GameOver => write!(f, "the game is over"),
            GameError::NoSuchPlayer(p) => write!(f, "this game has no {p}"),
            GameError::AlreadyTimedOut(p) => write!(f, "{p} has already run out of time"),
        }
    }
}

impl std::error::Error for GameError {}

/// A game in progress: rules, position, history.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    setup: Vec<(Colour, Move)>,
    events: Vec<GameEvent>,
    stack: Vec<Position>,
}

impl Game {
    /// A new game.
    pub fn new(rules: Rules) -> Game {
        let pos = Position::new(&rules);
        Game {
            rules,
            setup: Vec::new(),
            events: Vec::new(),
            stack: vec![pos],
        }
    }

    /// A game starting from setup placements (`.blksgf` `AB`/`A1`..), with `to_move` to
    /// play. Setup pieces are placed without checks, as records require.
    pub fn with_setup(rules: Rules, setup: Vec<(Colour, Move)>, to_move: Colour) -> Game {
        let mut pos = Position::new(&rules);
        for &(c, m) in &setup {
            pos.place(&rules, c, m);
        }
        pos.set_to_move(&rules, to_move);
        Game {
            rules,
            setup,
            events: Vec::new(),
            stack: vec![pos],
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.stack.last().expect("at least the start position")
    }

    /// The position after `n` events (0 = start).
    pub fn position_at(&self, n: usize) -> Option<&Position> {
        self.stack.get(n)
    }

    /// The setup placements the game started from.
    pub fn setup(&self) -> &[(Colour, Move)] {
        &self.setup
    }

    /// Events so far.
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// Placements so far, with their colours.
    pub fn moves(&self) -> impl Iterator<Item = (Colour, Move)> + '_ {
        self.events.iter().filter_map(|e| match *e {
            GameEvent::Place { colour, mv } => Some((colour, mv)),
            GameEvent::Pie(_) | GameEvent::TimeOut { .. } => None,
        })
    }

    /// The colour to move.
    pub fn to_move(&self) -> Colour {
        self.position().to_move()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// Legal placements of the colour to move (none when the game is over or a pie
    /// choice is pending).
    pub fn legal_moves(&self) -> Vec<Move> {
        let p = self.position();
        if p.is_over() || p.awaiting_pie_choice() {
            return Vec::new();
        }
        p.legal_moves(&self.rules, p.to_move())
    }

    /// Legal placements of a given colour, ignoring whose turn it is.
    pub fn legal_moves_of(&self, colour: Colour) -> Vec<Move> {
        self.position().legal_moves(&self.rules, colour)
    }

    fn illegal(&self, reason: Illegal) -> GameError {
        let message = IllegalDisplay(&reason, &self.rules).to_string();
        GameError::Illegal { reason, message }
    }

    /// Checks and plays a placement for the colour to move.
    ///
    /// # Errors
    /// [`GameError::Illegal`] naming the broken rule; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let colour = self.to_move();
        self.play_as(colour, mv)
    }

    /// Checks and plays a placement for `colour`, which must be the colour to move.
    ///
    /// # Errors
    /// [`GameError::Illegal`]; the game is unchanged.
    pub fn play_as(&mut self, colour: Colour, mv: Move) -> Result<(), GameError> {
        self.position()
            .check(&self.rules, colour, mv)
            .map_err(|r| self.illegal(r))?;
        let mut next = self.position().clone();
        next.play(&self.rules, mv);
        self.stack.push(next);
        self.events.push(GameEvent::Place { colour, mv });
        Ok(())
    }

    /// Plays a placement for any colour whose placement is legal by the placement rules,
    /// even out of turn, then gives the turn to the next colour after it that can move.
    /// This is how the `.blksgf` programs' GTP `play` behaves, so their tools can drive us.
    ///
    /// # Errors
    /// [`GameError::Illegal`]; the game is unchanged.
    pub fn play_for(&mut self, colour: Colour, mv: Move) -> Result<(), GameError> {
        if colour == self.to_move() || self.is_over() || self.position().awaiting_pie_choice() {
            return self.play_as(colour, mv);
        }
        self.position()
            .check_placement(&self.rules, colour, mv)
            .map_err(|r| self.illegal(r))?;
        let mut next = self.position().clone();
        next.set_to_move(&self.rules, colour);
        next.play(&self.rules, mv);
        self.stack.push(next);
        self.events.push(GameEvent::Place { colour, mv });
        Ok(())
    }

    /// Parses move text and plays it for the colour to move.
    ///
    /// # Errors
    /// A notation error naming the bad cell, or why the move is illegal.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        let mv = notation::parse_move(self.rules.table(), text).map_err(GameError::Notation)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Resolves move text against the current position without playing it.
    ///
    /// # Errors
    /// A notation error, or why the move is illegal for `colour`.
    pub fn resolve(&self, colour: Colour, text: &str) -> Result<Move, GameError> {
        let mv = notation::parse_move(self.rules.table(), text).map_err(GameError::Notation)?;
        self.position()
            .check(&self.rules, colour, mv)
            .map_err(|r| self.illegal(r))?;
        Ok(mv)
    }

    /// Makes the pie choice.
    ///
    /// # Errors
    /// [`GameError::NoPieChoice`] if none is pending.
    pub fn choose_pie(&mut self, choice: PieChoice) -> Result<(), GameError> {
        let mut next = self.position().clone();
        next.choose_pie(&self.rules, choice)
            .map_err(|_| GameError::NoPieChoice)?;
        self.stack.push(next);
        self.events.push(GameEvent::Pie(choice));
        Ok(())
    }

    /// `player`'s time ran out: with two players the game ends and that player loses;
    /// with more, the player's colours pass for the rest of the game.
    ///
    /// # Errors
    /// When the game is over, the player does not exist or already ran out of time.
    pub fn time_out(&mut self, player: PlayerId) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if player.index() >= self.rules.v().players {
            return Err(GameError::NoSuchPlayer(player));
        }
        if self.position().has_timed_out(player) {
            return Err(GameError::AlreadyTimedOut(player));
        }
        let mut next = self.position().clone();
        next.time_out(&self.rules, player);
        self.stack.push(next);
        self.events.push(GameEvent::TimeOut { player });
        Ok(())
    }

    /// Takes back the last event.
    ///
    /// # Errors
    /// [`GameError::NothingToUndo`] at the start.
    pub fn undo(&mut self) -> Result<GameEvent, GameError> {
        let e = self.events.pop().ok_or(GameError::NothingToUndo)?;
        self.stack.pop();
        Ok(e)
    }

    /// Colours that passed automatically right after event `n` (0-based), i.e. were
    /// skipped between that event's colour and the next colour to move.
    pub fn passes_after(&self, n: usize) -> Vec<Colour> {
        let Some(GameEvent::Place { colour, .. }) = self.events.get(n) else {
            return Vec::new();
        };
        let after = &self.stack[n + 1];
        if after.awaiting_pie_choice() {
            return Vec::new();
        }
        let k = self.rules.num_colours();
        let next = if after.is_over() {
            *colour
        } else {
            after.to_move()
        };
        let mut out = Vec::new();
        let mut c = colour.next(k);
        while c != next {
            out.push(c);
            c = c.next(k);
        }
        if after.is_over() && k == 1 {
            out.clear();
        }
        out
    }

    /// Each side's result (meaningful at the end, provisional before).
    pub fn results(&self) -> Vec<score::SideResult> {
        score::side_results(&self.rules, self.position())
    }
}
