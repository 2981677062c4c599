//! Rematches: the same table again with the colours rotated. One player asks; the new
//! game is created at once with every person's seat kept for them, and the others
//! accept by asking too, each getting the tokens of their new seats.

use serde::{Deserialize, Serialize};

use crate::seats::{new_token, Seat, SeatKind, SeatToken};

/// A rematch of a finished game, stored with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// The new game's id.
    pub id: String,
    /// Seats of the finished game whose players asked for the rematch or accepted it.
    pub accepted: Vec<usize>,
    /// The new game's tokens, by the seat of the finished game whose player gets them.
    pub tokens: Vec<RematchToken>,
}

/// One token of the new game and who gets it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchToken {
    /// The seat in the finished game.
    pub from: usize,
    /// The seat in the new game.
    pub seat: usize,
    /// Its token.
    pub token: String,
}

/// What every client sees of a rematch (the tokens stay on the server).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RematchView {
    /// The new game's id.
    pub id: String,
    /// Seats of the finished game whose players asked or accepted.
    pub accepted: Vec<usize>,
}

impl Rematch {
    /// The clients' view.
    pub fn view(&self) -> RematchView {
        RematchView {
            id: self.id.clone(),
            accepted: self.accepted.clone(),
        }
    }

    /// The tokens of the new game for the player of these seats of the finished game.
    pub fn tokens_for(&self, seats: &[usize]) -> Vec<SeatToken> {
        self.tokens
            .iter()
            .filter(|t| seats.contains(&t.from))
            .map(|t| SeatToken {
                seat: t.seat,
                token: t.token.clone(),
            })
            .collect()
    }
}

/// The seats of a rematch of a game with `old` seats asked for by the player of the
/// seats `asker`: each seat's player moves on to the next seat (so the colours rotate),
/// an AI keeps its level, every person keeps their display name. The asker's seats are
/// theirs at once (the first as `me`, hot-seat seats stay `hotseat`); the seats of the
/// other people are reserved for them, to be taken when they accept. Returns the new
/// seats and the new game's tokens, each with the seat of the finished game whose
/// player gets it.
pub fn plan(old: &[Seat], asker: &[usize]) -> (Vec<Seat>, Vec<RematchToken>) {
    let n = old.len();
    let mut seats = Vec::with_capacity(n);
    let mut tokens = Vec::new();
    for new_seat in 0..n {
        let from = (new_seat + n - 1) % n;
        let o = &old[from];
        let mut seat = match o.kind {
            SeatKind::Ai => Seat::new(SeatKind::Ai, o.level),
            _ if asker.contains(&from) => {
                let kind = if o.kind == SeatKind::Hotseat {
                    SeatKind::Hotseat
                } else {
                    SeatKind::Me
                };
                Seat::new(kind, None)
            }
            // An invitation nobody took stays an open seat.
            SeatKind::Human if !o.claimed => Seat::new(SeatKind::Human, None),
            _ => Seat {
                reserved: true,
                ..Seat::new(SeatKind::Human, None)
            },
        };
        seat.name = o.name.clone();
        if seat.claimed || seat.reserved {
            tokens.push(RematchToken {
                from,
                seat: new_seat,
                token: new_token(),
            });
        }
        seats.push(seat);
    }
    (seats, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::DisplayName;
    use crate::seats::AiLevel;

    fn named(kind: SeatKind, name: &str) -> Seat {
        Seat {
            claimed: true,
            name: Some(DisplayName::try_from(name.to_string()).unwrap()),
            ..Seat::new(kind, None)
        }
    }

    #[test]
    fn the_players_move_on_one_seat_and_the_others_seats_wait_for_them() {
        let old = vec![named(SeatKind::Me, "Ada"), named(SeatKind::Human, "Bo")];
        // Bo (seat 1) asks: Bo opens now, Ada's seat waits for her.
        let (seats, tokens) = plan(&old, &[1]);
        assert_eq!(seats[0].kind, SeatKind::Me);
        assert_eq!(seats[0].name.as_ref().unwrap().as_str(), "Bo");
        assert!(seats[0].claimed);
        assert_eq!(seats[1].kind, SeatKind::Human);
        assert!(seats[1].reserved && !seats[1].claimed && !seats[1].is_open());
        assert_eq!(seats[1].name.as_ref().unwrap().as_str(), "Ada");
        let r = Rematch {
            id: "x".into(),
            accepted: vec![1],
            tokens,
        };
        let bo = r.tokens_for(&[1]);
        let ada = r.tokens_for(&[0]);
        assert_eq!((bo.len(), bo[0].seat), (1, 0));
        assert_eq!((ada.len(), ada[0].seat), (1, 1));
        assert_ne!(bo[0].token, ada[0].token);
    }

    #[test]
    fn ai_seats_keep_their_level_and_hot_seat_stays_at_the_device() {
        let level = Some(AiLevel::try_from(5).unwrap());
        let old = vec![
            Seat::new(SeatKind::Me, None),
            Seat::new(SeatKind::Ai, level),
            Seat::new(SeatKind::Hotseat, None),
        ];
        let (seats, tokens) = plan(&old, &[0, 2]);
        let kinds: Vec<SeatKind> = seats.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, [SeatKind::Hotseat, SeatKind::Me, SeatKind::Ai]);
        assert_eq!(seats[2].level, level);
        assert_eq!(tokens.len(), 2);
        assert!(seats.iter().all(|s| !s.reserved));
    }
}
