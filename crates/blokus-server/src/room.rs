//! One game room: an actor task that owns the game, validates every action with
//! `blokus-core`, persists it, then broadcasts. AI seats think on blocking threads.
//! The game is of either family ([`RoomGame`]: flat or Blokus 3D).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use blokus_ai::Budget;
use blokus_core::PlayerId;
use tokio::sync::{mpsc, oneshot};

use crate::accounts::Player;
use crate::chat::{chat_bucket, ChatChannel, ChatLine, ChatText, HISTORY, MAX_LINES_PER_GAME};
use crate::clock::{self, now_ms, Clock};
use crate::cpu::Cpu;
use crate::error::AppError;
use crate::hub::AddressBuckets;
use crate::names::DisplayName;
use crate::presence::Presence;
use crate::protocol::{ClientMsg, ErrorCode, Refusal, ServerMsg, StateMsg};
use crate::rematch::{self, Rematch};
use crate::room_game::{AiMove, RoomGame};
use crate::seats::{is_token, new_game_id, new_token, AiLevel, GameStatus, Seat, SeatKind};
use crate::store::{
    NewGame, NewGameAccounts, SeatAccount, SeatClaim, Store, StoredGame, TableLink,
};
use crate::tournaments::online::{self, TablesDone};
use crate::view::{AnyView, RoomFacts, TournamentTable};
use crate::ws::Bucket;

/// Text sent to one connection.
pub type Outgoing = Arc<str>;

/// Most connections (players and spectators) in one room.
pub const MAX_CONNECTIONS_PER_ROOM: usize = 64;
/// Pending outgoing messages per connection before it is dropped as too slow.
pub const OUTBOX: usize = 64;

/// A request to a room.
pub enum RoomMsg {
    /// A WebSocket connection arrives (as a spectator until it joins).
    Connect {
        /// Connection id.
        conn: u64,
        /// The client's address (wrong tokens are charged to it).
        ip: IpAddr,
        /// Where to send its messages.
        out: mpsc::Sender<Outgoing>,
        /// Kept while the room serves the connection: dropped when the room lets it go
        /// (too slow a reader), or sent [`Goodbye`] when the room ends.
        alive: oneshot::Sender<Goodbye>,
        /// Refused when the room is full.
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    /// The connection closed.
    Disconnect {
        /// Connection id.
        conn: u64,
    },
    /// A parsed client message.
    Client {
        /// Connection id.
        conn: u64,
        /// The message.
        msg: ClientMsg,
    },
    /// The state (for `GET /api/games/{id}`).
    Snapshot {
        /// Include the legal moves of the colour to move.
        legal: bool,
        /// The answer.
        reply: oneshot::Sender<Snapshot>,
    },
    /// An account took over a seat its player held as a guest (at sign-up): the seat
    /// shows the account's name from now on.
    AccountSeated {
        /// Seat index.
        seat: usize,
        /// The account.
        player: Player,
    },
    /// Attaches a seat to an account whose guest token held it, from a sign-up on
    /// another server (several servers on one database): the room stores it, so its
    /// later writes keep the account's name. Answers whether the seat was attached.
    AttachAccount {
        /// Seat index.
        seat: usize,
        /// The account.
        player: Player,
        /// The answer.
        reply: oneshot::Sender<Result<bool, AppError>>,
    },
    /// A person claims an open seat by link; answers the new token.
    Claim {
        /// Seat index; `None` = the first open seat.
        seat: Option<usize>,
        /// The account of the person, if logged in (required in rated games).
        account: Option<Player>,
        /// The answer.
        reply: oneshot::Sender<Result<(usize, String), AppError>>,
    },
    /// A copy of the game and its seats (for record downloads).
    GameCopy {
        /// The answer.
        reply: oneshot::Sender<(RoomGame, Vec<Seat>)>,
    },
    /// The server stops: the room finishes what it was doing, says goodbye to its
    /// connections and ends, then answers.
    Shutdown {
        /// Answered when the room has ended.
        reply: oneshot::Sender<()>,
    },
    /// The hub asks an idle room to leave memory: answers `true` and ends if it has had
    /// no connection, no AI work and no request for `idle`.
    Evict {
        /// How long the room must have been idle.
        idle: Duration,
        /// Whether the room ends.
        reply: oneshot::Sender<bool>,
    },
}

/// The stub other tasks use to talk to a room.
#[derive(Clone)]
pub struct RoomHandle {
    tx: mpsc::Sender<RoomMsg>,
    started: Instant,
}

impl RoomHandle {
    /// When the room was loaded.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Whether the room task has ended; the hub then reloads it.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Whether both handles reach the same room task.
    pub fn same_room(&self, other: &RoomHandle) -> bool {
        self.tx.same_channel(&other.tx)
    }

    /// Sends a message, giving it back if the room has ended.
    ///
    /// # Errors
    /// The message, when the room task is gone.
    pub async fn try_send(&self, msg: RoomMsg) -> Result<(), RoomMsg> {
        self.tx.send(msg).await.map_err(|e| e.0)
    }

    /// Sends a message; fails if the room has ended.
    pub async fn send(&self, msg: RoomMsg) -> Result<(), AppError> {
        self.tx
            .send(msg)
            .await
            .map_err(|_| AppError::Busy("the game room was closing; try again".into()))
    }

    /// Sends a request carrying a oneshot reply and awaits the answer.
    pub async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<T>) -> RoomMsg,
    ) -> Result<T, AppError> {
        let (tx, rx) = oneshot::channel();
        self.send(make(tx)).await?;
        rx.await
            .map_err(|_| AppError::Internal("the game room stopped".into()))
    }
}

/// The state of a game for HTTP: the shared view and, when asked for and the game is
/// not over, the legal moves with their pieces.
pub struct Snapshot {
    /// The shared state.
    pub game: AnyView,
    /// Legal move texts and the pieces having one.
    pub legal: Option<(Vec<String>, Vec<usize>)>,
}

impl Snapshot {
    /// The `state` message of the snapshot, as JSON text.
    pub fn text(&self) -> Outgoing {
        ServerMsg::State(StateMsg {
            game: &self.game,
            you: None,
            can_undo: None,
            legal: self.legal.as_ref().map(|l| l.0.as_slice()),
            legal_pieces: self.legal.as_ref().map(|l| l.1.as_slice()),
        })
        .text()
    }
}

/// Why a room lets a connection go on purpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goodbye {
    /// The server is stopping; the client should reconnect in a moment.
    Restart,
}

struct Conn {
    out: mpsc::Sender<Outgoing>,
    seats: Vec<usize>,
    ip: IpAddr,
    alive: oneshot::Sender<Goodbye>,
    /// Its chat allowance.
    chat: Bucket,
    /// A spectator's name for the chat.
    name: Option<DisplayName>,
}

/// Completes at `at` (unix ms; at once if past), or never for `None`.
async fn sleep_until_ms(at: Option<i64>) {
    match at {
        Some(at) => {
            let wait = Duration::from_millis((at - now_ms()).max(0) as u64);
            tokio::time::sleep(wait).await;
        }
        None => std::future::pending().await,
    }
}

/// Whether every seat's player is there (AI seats always are): nobody moves before.
pub fn all_seats_taken(seats: &[Seat]) -> bool {
    seats.iter().all(Seat::is_taken)
}

/// Whether an AI seat is to move in a game (stored, so a restart resumes the game). An
/// AI waits, like everybody, until every invited person has taken their seat.
pub fn ai_to_move(game: &RoomGame, seats: &[Seat]) -> bool {
    all_seats_taken(seats)
        && game
            .player_to_move()
            .and_then(|p| seats.get(p))
            .is_some_and(|s| s.kind == SeatKind::Ai)
}

struct AiResult {
    ply: usize,
    decision: Option<AiMove>,
}

/// What an AI seat's search tells its room.
enum AiEvent {
    /// The search got its CPU slot after waiting `waited_ms` in the queue: the AI's
    /// clock is given that time back (see [`Room::ai_started`]).
    Started { ply: usize, waited_ms: i64 },
    /// The search ended.
    Done(AiResult),
}

/// A wait for the CPU shorter than this is given back silently; a longer one is also
/// shown to the clients at once (a new state with the corrected clocks).
const SHOWN_WAIT_MS: i64 = 100;

/// The room's state, owned by its task.
struct Room {
    id: String,
    game: RoomGame,
    seats: Vec<Seat>,
    tokens: HashMap<String, usize>,
    /// Rated games allow no undo and are settled when they end.
    rated: bool,
    /// The account playing each seat that one plays.
    accounts: Vec<SeatAccount>,
    store: Store,
    cpu: Cpu,
    guesses: AddressBuckets,
    conns: HashMap<u64, Conn>,
    ai_pending: Option<usize>,
    /// Whether the pending AI search has its CPU slot: until then its seat is not on
    /// the clock (it cannot flag), and the wait is not charged.
    ai_thinking: bool,
    ai_tx: mpsc::UnboundedSender<AiEvent>,
    last_active: Instant,
    evicted: bool,
    clock: Option<Clock>,
    presence: Presence,
    /// The recent chat lines of both channels, oldest first.
    chat: Vec<ChatLine>,
    /// Chat lines stored for this game (the next line's number).
    chat_count: u64,
    /// Chat allowance per seat (shared by every connection of a seat).
    seat_chat: Vec<Bucket>,
    /// Chat allowance per spectator address.
    address_chat: HashMap<IpAddr, Bucket>,
    rematch: Option<Rematch>,
    /// The spectator count the clients were last told.
    told_spectators: usize,
    /// The tournament table the game is played at: no undo, and the result is entered
    /// with the last move.
    tournament: Option<TableLink>,
    tables_done: TablesDone,
}

/// Starts the task of a stored game and returns its handle.
///
/// # Errors
/// If the stored events cannot be replayed.
pub fn spawn(
    stored: StoredGame,
    store: Store,
    cpu: Cpu,
    guesses: AddressBuckets,
    presence: Presence,
    tables_done: TablesDone,
) -> Result<RoomHandle, AppError> {
    let game = RoomGame::rebuild(&stored.variant, &stored.options, &stored.events)
        .map_err(|e| AppError::Internal(format!("game {}: {e}", stored.id)))?;
    let (tx, rx) = mpsc::channel(256);
    let (ai_tx, ai_rx) = mpsc::unbounded_channel();
    let seat_chat = stored.seats.iter().map(|_| chat_bucket()).collect();
    let room = Room {
        id: stored.id,
        game,
        seat_chat,
        seats: stored.seats,
        tokens: stored.tokens.into_iter().collect(),
        rated: stored.rated,
        accounts: stored.accounts,
        store,
        cpu,
        guesses,
        conns: HashMap::new(),
        ai_pending: None,
        ai_thinking: false,
        ai_tx,
        last_active: Instant::now(),
        evicted: false,
        clock: stored.clock,
        presence,
        chat: stored.chat,
        chat_count: stored.chat_count,
        address_chat: HashMap::new(),
        rematch: stored.rematch,
        told_spectators: 0,
        tournament: stored.tournament,
        tables_done,
    };
    tokio::spawn(room.run(rx, ai_rx));
    Ok(RoomHandle {
        tx,
        started: Instant::now(),
    })
}

impl Room {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<RoomMsg>,
        mut ai_rx: mpsc::UnboundedReceiver<AiEvent>,
    ) {
        self.maybe_start_ai();
        // The room ends only when the hub evicts it (so the hub never hands out the
        // handle of a room that is about to end) or when every handle is gone.
        while !self.evicted {
            // An AI seat waiting for a CPU slot cannot run out of time meanwhile.
            let waiting_for_cpu = self.ai_pending.is_some() && !self.ai_thinking;
            let flag_at = self
                .clock
                .as_ref()
                .and_then(Clock::flag_at)
                .filter(|_| !waiting_for_cpu);
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(m) => self.handle(m).await,
                    None => break,
                },
                Some(e) = ai_rx.recv() => {
                    self.last_active = Instant::now();
                    match e {
                        AiEvent::Started { ply, waited_ms } => self.ai_started(ply, waited_ms),
                        AiEvent::Done(r) => self.ai_done(r).await,
                    }
                }
                () = sleep_until_ms(flag_at) => {
                    self.last_active = Instant::now();
                    self.flag().await;
                }
            }
            self.connections_changed();
        }
        self.presence.set(&self.id, false);
    }

    fn spectators(&self) -> usize {
        self.conns.values().filter(|c| c.seats.is_empty()).count()
    }

    /// After every step: tells everybody a new spectator count (connections come and
    /// go, or are dropped as too slow, anywhere) and keeps the lobby's presence current.
    fn connections_changed(&mut self) {
        for _ in 0..4 {
            let n = self.spectators();
            if n == self.told_spectators {
                break;
            }
            self.told_spectators = n;
            self.broadcast(ServerMsg::Viewers { spectators: n }.text());
        }
        let fresh = self.game.ply() == 0 && !self.game.is_over();
        self.presence
            .set(&self.id, fresh && !self.conns.is_empty() && !self.evicted);
    }

    fn status(&self) -> GameStatus {
        GameStatus::of(self.game.is_over(), &self.seats)
    }

    fn connected(&self) -> Vec<bool> {
        (0..self.seats.len())
            .map(|s| {
                self.seats[s].kind == SeatKind::Ai
                    || self.conns.values().any(|c| c.seats.contains(&s))
            })
            .collect()
    }

    /// Whether a connection holding `seats` may take moves back: every seat played by a
    /// person must be its own (a game against the AI, or hot-seat).
    fn may_undo(&self, seats: &[usize]) -> bool {
        // A tournament game counts, and so does a rated one: no take-backs.
        self.tournament.is_none()
            && !self.rated
            && !seats.is_empty()
            && self
                .seats
                .iter()
                .enumerate()
                .all(|(i, s)| !s.is_human() || seats.contains(&i))
            && (0..self.game.ply()).any(|n| seats.contains(&self.game.event_player(n)))
    }

    fn view(&self) -> AnyView {
        let mut v = self.game.view(
            &self.id,
            &self.seats,
            RoomFacts {
                connected: &self.connected(),
                spectators: self.spectators(),
                rematch: self.rematch.as_ref().map(Rematch::view),
                rated: self.rated,
            },
        );
        if let AnyView::Flat(flat) = &mut v {
            flat.clock = self.clock.as_ref().map(|c| c.view(now_ms()));
            flat.tournament = self.tournament.as_ref().map(|l| TournamentTable {
                id: l.tournament.clone(),
                round: l.round,
                table: l.table,
            });
        }
        v
    }

    /// The clocks after a change of the game to `game` with `seats` at `now`: the
    /// running clock stops (gaining the increment if `moved_by` just moved), and the
    /// clock of the player to move starts, once every seat is taken and until the end.
    fn clock_after(
        base: Option<Clock>,
        game: &RoomGame,
        seats: &[Seat],
        moved_by: Option<usize>,
        now: i64,
    ) -> Option<Clock> {
        let mut c = base?;
        match moved_by {
            Some(p) => c.moved(p, now),
            None => c.stop(now),
        }
        if let (Some(p), true) = (game.player_to_move(), all_seats_taken(seats)) {
            c.start(p, now);
        }
        Some(c)
    }

    /// The running clock reached zero: that player's time is out (the rules in
    /// `blokus-core` say what follows), stored and announced like a move.
    async fn flag(&mut self) {
        let Some(mut clock) = self.clock.clone() else {
            return;
        };
        if clock.flag_at().is_none_or(|at| at > now_ms()) {
            return;
        }
        let Some(player) = clock.flagged() else {
            return;
        };
        if self.game.time_out(PlayerId::new(player)).is_err() {
            // Nothing to decide (the game ended meanwhile): the clock just stops.
            self.clock = Some(clock);
            return;
        }
        if let Err(e) = self.commit_last(Some(clock)).await {
            self.broadcast(ServerMsg::error(&e));
            // The database refused: try again in a moment rather than at once.
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// Sends every connection the current state; the legal moves go only to the
    /// connections that play the side to move.
    fn broadcast_state(&mut self) {
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        self.send_state(&ids);
    }

    /// Sends the state to some connections.
    fn send_state(&mut self, ids: &[u64]) {
        let game = self.view();
        let mover = self.game.player_to_move();
        let plays_mover = |c: &Conn| mover.is_some_and(|p| c.seats.contains(&p));
        let needs_legal = ids
            .iter()
            .filter_map(|id| self.conns.get(id))
            .any(plays_mover);
        let legal = needs_legal.then(|| self.game.legal_moves());
        let texts: Vec<(u64, Outgoing)> = ids
            .iter()
            .filter_map(|&id| {
                let c = self.conns.get(&id)?;
                let legal = legal.as_ref().filter(|_| plays_mover(c));
                let msg = ServerMsg::State(StateMsg {
                    game: &game,
                    you: Some(&c.seats),
                    can_undo: Some(self.may_undo(&c.seats)),
                    legal: legal.map(|l| l.0.as_slice()),
                    legal_pieces: legal.map(|l| l.1.as_slice()),
                });
                Some((id, msg.text()))
            })
            .collect();
        for (id, text) in texts {
            self.send_to(id, text);
        }
    }

    fn send_to(&mut self, conn: u64, text: Outgoing) {
        if let Some(c) = self.conns.get(&conn) {
            if c.out.try_send(text).is_err() {
                // Too slow or gone: drop it; the client reconnects and gets a fresh state.
                self.conns.remove(&conn);
            }
        }
    }

    fn broadcast(&mut self, text: Outgoing) {
        let ids: Vec<u64> = self.conns.keys().copied().collect();
        for id in ids {
            self.send_to(id, text.clone());
        }
    }

    async fn handle(&mut self, msg: RoomMsg) {
        if !matches!(msg, RoomMsg::Evict { .. }) {
            self.last_active = Instant::now();
        }
        match msg {
            RoomMsg::Evict { idle, reply } => {
                self.evicted = self.conns.is_empty()
                    && self.ai_pending.is_none()
                    && self.last_active.elapsed() >= idle;
                let _ = reply.send(self.evicted);
            }
            RoomMsg::Shutdown { reply } => {
                for (_, c) in self.conns.drain() {
                    let _ = c.alive.send(Goodbye::Restart);
                }
                self.evicted = true;
                let _ = reply.send(());
            }
            RoomMsg::Connect {
                conn,
                ip,
                out,
                alive,
                reply,
            } => {
                if self.conns.len() >= MAX_CONNECTIONS_PER_ROOM {
                    let _ =
                        reply.send(Err(AppError::Busy("this game has too many viewers".into())));
                    return;
                }
                self.conns.insert(
                    conn,
                    Conn {
                        out,
                        seats: Vec::new(),
                        ip,
                        alive,
                        chat: chat_bucket(),
                        name: None,
                    },
                );
                let _ = reply.send(Ok(()));
                // A spectator changes nobody else's view but the count (told after
                // this step).
                self.told_spectators = self.spectators();
                self.send_state(&[conn]);
                self.send_chat_history(conn);
                self.broadcast(
                    ServerMsg::Viewers {
                        spectators: self.told_spectators,
                    }
                    .text(),
                );
            }
            RoomMsg::Disconnect { conn } => {
                if let Some(c) = self.conns.remove(&conn) {
                    if !c.seats.is_empty() {
                        self.broadcast_state();
                    }
                }
                // The lobby counts a game without moves as abandoned from the moment
                // its last connection left.
                if self.conns.is_empty() && self.game.ply() == 0 {
                    let _ = self.store.touch(self.id.clone()).await;
                }
            }
            RoomMsg::Client { conn, msg } => {
                if let Err(e) = self.client(conn, msg).await {
                    self.send_to(conn, ServerMsg::error(&e));
                }
            }
            RoomMsg::Snapshot { legal, reply } => {
                let _ = reply.send(Snapshot {
                    game: self.view(),
                    legal: (legal && !self.game.is_over()).then(|| self.game.legal_moves()),
                });
            }
            RoomMsg::Claim {
                seat,
                account,
                reply,
            } => {
                let r = self.claim(seat, account).await;
                let _ = reply.send(r);
            }
            RoomMsg::AccountSeated { seat, player } => {
                // The store has the account and the name already (same transaction as
                // the sign-up); the room takes them over for its view and later saves.
                if seat < self.seats.len() && !self.accounts.iter().any(|a| a.seat == seat) {
                    self.seat_account(seat, player);
                }
            }
            RoomMsg::AttachAccount {
                seat,
                player,
                reply,
            } => {
                let r = self.attach_account(seat, player).await;
                let _ = reply.send(r);
            }
            RoomMsg::GameCopy { reply } => {
                let _ = reply.send((self.game.clone(), self.seats.clone()));
            }
        }
    }

    /// Shows an account on a seat it now plays, live.
    fn seat_account(&mut self, seat: usize, player: Player) {
        self.seats[seat].name = Some(account_name(&player));
        self.accounts.push(SeatAccount {
            seat,
            account: player.account,
            name: player.name,
        });
        self.broadcast_state();
    }

    /// Stores that an account plays a seat (see [`RoomMsg::AttachAccount`]).
    async fn attach_account(&mut self, seat: usize, player: Player) -> Result<bool, AppError> {
        if seat >= self.seats.len() || self.accounts.iter().any(|a| a.seat == seat) {
            return Ok(false);
        }
        let added = self
            .store
            .attach_seat(self.id.clone(), seat, player.account, player.name.clone())
            .await?;
        if added {
            self.seat_account(seat, player);
        }
        Ok(added)
    }

    async fn claim(
        &mut self,
        seat: Option<usize>,
        account: Option<Player>,
    ) -> Result<(usize, String), AppError> {
        if self.rated {
            let Some(a) = &account else {
                return Err(AppError::Unauthorized(
                    "this game is rated: log in to play in it".into(),
                ));
            };
            if self.accounts.iter().any(|b| b.account == a.account) {
                return Err(AppError::Conflict(
                    "you already play a seat of this rated game".into(),
                ));
            }
        }
        let s = match seat {
            Some(s) => s,
            None => self
                .seats
                .iter()
                .position(Seat::is_open)
                .ok_or_else(|| AppError::Conflict("this game has no open seat".into()))?,
        };
        let Some(st) = self.seats.get(s) else {
            return Err(AppError::BadRequest(format!("seat {s} does not exist")));
        };
        if !st.is_open() {
            return Err(AppError::Conflict(format!("seat {s} is not open")));
        }
        let token = new_token();
        let mut seats = self.seats.clone();
        seats[s].claimed = true;
        if let Some(a) = &account {
            seats[s].name = Some(account_name(a));
        }
        let claim = SeatClaim {
            seat: s,
            token: token.clone(),
            account,
        };
        self.save_seats(seats, Some(claim)).await?;
        self.tokens.insert(token.clone(), s);
        self.broadcast_state();
        self.maybe_start_ai();
        Ok((s, token))
    }

    /// Stores changed seats (with a new token and the account playing it) and takes
    /// them over.
    async fn save_seats(
        &mut self,
        seats: Vec<Seat>,
        claim: Option<SeatClaim>,
    ) -> Result<(), AppError> {
        let status = GameStatus::of(self.game.is_over(), &seats);
        let ai = ai_to_move(&self.game, &seats);
        // The clocks start once every seat is taken.
        let clock = Self::clock_after(self.clock.clone(), &self.game, &seats, None, now_ms());
        self.store
            .update_seats(
                self.id.clone(),
                claim.clone(),
                seats.clone(),
                status,
                ai,
                clock.clone(),
            )
            .await?;
        self.seats = seats;
        self.clock = clock;
        if let Some(SeatClaim {
            seat,
            account: Some(account),
            ..
        }) = claim
        {
            // The account's user name is the seat's name from now on.
            self.accounts.retain(|a| a.seat != seat);
            self.accounts.push(SeatAccount {
                seat,
                account: account.account,
                name: account.name,
            });
        }
        Ok(())
    }

    async fn client(&mut self, conn: u64, msg: ClientMsg) -> Result<(), Refusal> {
        match msg {
            ClientMsg::Ping {} => {
                self.send_state(&[conn]);
                Ok(())
            }
            ClientMsg::Join {
                token,
                tokens,
                name,
            } => {
                let name = name.map(parse_name).transpose()?;
                let mut all: Vec<String> = tokens.unwrap_or_default();
                all.extend(token);
                if all.is_empty() || all.len() > 8 {
                    return Err(Refusal::new(
                        ErrorCode::BadJoin,
                        "join needs 'token' or 1..8 'tokens'",
                    ));
                }
                let ip = self.conns.get(&conn).map(|c| c.ip);
                // Wrong tokens cost their address: once it is out of guesses, even a
                // right token waits.
                if ip.is_some_and(|ip| !self.guesses.has(ip)) {
                    return Err(Refusal::new(
                        ErrorCode::RateLimited,
                        "too many wrong tokens from your address; wait a minute",
                    ));
                }
                let mut seats = Vec::new();
                for t in &all {
                    let seat = is_token(t).then(|| self.tokens.get(t)).flatten().copied();
                    match seat {
                        Some(s) => seats.push(s),
                        None => {
                            if let Some(ip) = ip {
                                self.guesses.spend(ip, 1.0);
                            }
                            return Err(Refusal::new(
                                ErrorCode::BadToken,
                                "this token holds no seat of this game",
                            ));
                        }
                    }
                }
                seats.sort_unstable();
                seats.dedup();
                // A seat kept for this person (a rematch) is theirs from now on.
                let mut taken = self.seats.clone();
                for &s in &seats {
                    if taken[s].reserved && !taken[s].claimed {
                        taken[s].claimed = true;
                    }
                }
                let mut changed = taken != self.seats;
                // At a tournament table each seat shows its entrant's name; an
                // account's seats keep its user name.
                let guest_seats = self.without_accounts(&seats);
                let named = name
                    .as_ref()
                    .filter(|_| self.tournament.is_none() && !guest_seats.is_empty());
                if let Some(name) = named {
                    changed |= name_seats(&mut taken, &guest_seats, None, name)?;
                }
                if changed {
                    self.save_seats(taken, None)
                        .await
                        .map_err(|e| e.refusal())?;
                }
                let before = self.connected();
                if let Some(c) = self.conns.get_mut(&conn) {
                    c.seats = seats;
                }
                // Others see a change only when a seat or its connection flag changed.
                if self.connected() == before && !changed {
                    self.send_state(&[conn]);
                } else {
                    self.broadcast_state();
                }
                self.send_chat_history(conn);
                self.maybe_start_ai();
                Ok(())
            }
            ClientMsg::Name { name, seat } => {
                let name = parse_name(name)?;
                let held = self.conn_seats(conn);
                if held.is_empty() {
                    if seat.is_some() {
                        return Err(not_held());
                    }
                    if let Some(c) = self.conns.get_mut(&conn) {
                        c.name = Some(name);
                    }
                    return Ok(());
                }
                if self.tournament.is_some() {
                    return Err(Refusal::new(
                        ErrorCode::BadName,
                        "at a tournament table your name is the one you registered with",
                    ));
                }
                // An account's seats show its user name: one name per person.
                let guest_seats = self.without_accounts(&held);
                let wanted = seat.map_or(guest_seats.is_empty(), |s| {
                    held.contains(&s) && !guest_seats.contains(&s)
                });
                if wanted {
                    return Err(Refusal::new(
                        ErrorCode::BadName,
                        "this seat is played from an account and shows its user name",
                    ));
                }
                let mut seats = self.seats.clone();
                if name_seats(&mut seats, &guest_seats, seat, &name)? {
                    self.save_seats(seats, None)
                        .await
                        .map_err(|e| e.refusal())?;
                    self.broadcast_state();
                }
                Ok(())
            }
            ClientMsg::Chat { text } => self.chat(conn, &text).await,
            ClientMsg::Rematch {} => self.rematch(conn).await,
            ClientMsg::Move { cells, ply } => {
                self.check_turn(conn, ply)?;
                if self.game.awaiting_pie() {
                    return Err(Refusal::new(
                        ErrorCode::PiePending,
                        "the pie choice must be made first (send a 'pie' message)",
                    ));
                }
                let text = cells.to_text().ok_or_else(|| {
                    Refusal::new(ErrorCode::Malformed, "too many cells for one move")
                })?;
                self.game.play_text(&text)?;
                self.commit_last(self.clock.clone()).await
            }
            ClientMsg::Check { cells } => {
                let text = cells.to_text().ok_or_else(|| {
                    Refusal::new(ErrorCode::Malformed, "too many cells for one move")
                })?;
                let verdict = if self.game.is_over() {
                    Err(Refusal::new(ErrorCode::GameOver, "the game is over"))
                } else {
                    self.game.check_text(&text)
                };
                let answer = ServerMsg::Check {
                    legal: verdict.is_ok(),
                    reason: verdict.err().map(|r| r.message),
                    cells: text,
                };
                self.send_to(conn, answer.text());
                Ok(())
            }
            ClientMsg::Pie { choice } => {
                self.check_turn(conn, None)?;
                self.game.choose_pie(choice)?;
                self.commit_last(self.clock.clone()).await
            }
            ClientMsg::Undo {} => {
                let seats = self
                    .conns
                    .get(&conn)
                    .map(|c| c.seats.clone())
                    .unwrap_or_default();
                if !self.may_undo(&seats) {
                    return Err(Refusal::new(
                        ErrorCode::UndoRefused,
                        "undo is only possible against the AI or in hot-seat, after a move of your own",
                    ));
                }
                self.undo(&seats).await
            }
        }
    }

    /// The seats of `seats` no account plays (their names are chosen per game).
    fn without_accounts(&self, seats: &[usize]) -> Vec<usize> {
        seats
            .iter()
            .copied()
            .filter(|&s| !self.accounts.iter().any(|a| a.seat == s))
            .collect()
    }

    /// The seats a connection holds.
    fn conn_seats(&self, conn: u64) -> Vec<usize> {
        self.conns
            .get(&conn)
            .map(|c| c.seats.clone())
            .unwrap_or_default()
    }

    /// Sends a connection the recent lines of the chat it reads.
    fn send_chat_history(&mut self, conn: u64) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        let channel = ChatChannel::of(&c.seats);
        let lines: Vec<ChatLine> = self
            .chat
            .iter()
            .filter(|l| l.channel == channel)
            .cloned()
            .collect();
        let text = ServerMsg::ChatHistory {
            channel,
            lines: &lines,
        }
        .text();
        self.send_to(conn, text);
    }

    /// A chat line from a connection: checked, limited, stored, then sent to the
    /// connections of its channel.
    async fn chat(&mut self, conn: u64, text: &str) -> Result<(), Refusal> {
        let text = ChatText::new(text).map_err(|m| Refusal::new(ErrorCode::BadChat, m))?;
        if self.chat_count >= MAX_LINES_PER_GAME {
            return Err(Refusal::new(
                ErrorCode::BadChat,
                format!("this game's chat is full ({MAX_LINES_PER_GAME} messages)"),
            ));
        }
        let Some(c) = self.conns.get(&conn) else {
            return Ok(());
        };
        let channel = ChatChannel::of(&c.seats);
        let ip = c.ip;
        // The seat that speaks: in hot-seat, the one to move if it is held here.
        let mover = self.game.player_to_move();
        let seat = match channel {
            ChatChannel::Players if mover.is_some_and(|m| c.seats.contains(&m)) => mover,
            ChatChannel::Players => c.seats.first().copied(),
            ChatChannel::Spectators => None,
        };
        let name = match seat {
            Some(s) => self.seat_title(s),
            None => c
                .name
                .as_ref()
                .map_or_else(|| "Spectator".to_string(), |n| n.to_string()),
        };
        // Every allowance must have room: the connection's, and the seat's (so more
        // connections do not talk faster) or the spectator's address's.
        let now = Instant::now();
        let slow = || {
            Refusal::new(
                ErrorCode::RateLimited,
                "you are chatting too fast; wait a few seconds",
            )
        };
        let conn_ok = self.conns.get_mut(&conn).is_some_and(|c| c.chat.has(now));
        let shared = match seat {
            Some(s) => &mut self.seat_chat[s],
            None => {
                if self.address_chat.len() > 1000 {
                    self.address_chat.retain(|_, b| !b.is_full(now));
                }
                self.address_chat.entry(ip).or_insert_with(chat_bucket)
            }
        };
        if !conn_ok || !shared.take(now) {
            return Err(slow());
        }
        if let Some(c) = self.conns.get_mut(&conn) {
            c.chat.take(now);
        }
        let line = ChatLine {
            n: self.chat_count,
            channel,
            seat,
            name,
            text: text.into_string(),
            at: unix_now(),
        };
        self.store
            .add_chat(self.id.clone(), line.clone())
            .await
            .map_err(|e| {
                Refusal::new(
                    ErrorCode::Internal,
                    format!("the message could not be saved: {e}"),
                )
            })?;
        self.chat_count += 1;
        let text = ServerMsg::Chat(&line).text();
        let ids: Vec<u64> = self
            .conns
            .iter()
            .filter(|(_, c)| ChatChannel::of(&c.seats) == channel)
            .map(|(&id, _)| id)
            .collect();
        for id in ids {
            self.send_to(id, text.clone());
        }
        self.chat.push(line);
        // Keep the last lines of each channel.
        if self.chat.iter().filter(|l| l.channel == channel).count() > HISTORY {
            if let Some(i) = self.chat.iter().position(|l| l.channel == channel) {
                self.chat.remove(i);
            }
        }
        Ok(())
    }

    /// A seat as people call it: its display name, else its colours ("Blue + Red").
    fn seat_title(&self, seat: usize) -> String {
        if let Some(name) = &self.seats[seat].name {
            return name.to_string();
        }
        let colours = self.game.seat_colours(self.seats.len());
        let words: Vec<String> = colours[seat]
            .iter()
            .map(|c| {
                let mut chars = c.chars();
                chars.next().map_or_else(String::new, |f| {
                    f.to_uppercase().collect::<String>() + chars.as_str()
                })
            })
            .collect();
        if words.is_empty() {
            format!("Player {}", seat + 1)
        } else {
            words.join(" + ")
        }
    }

    /// A rematch asked for (the first time: the new game is created) or accepted: the
    /// asker gets the tokens of their seats in the new game.
    async fn rematch(&mut self, conn: u64) -> Result<(), Refusal> {
        let held = self.conn_seats(conn);
        if held.is_empty() {
            return Err(Refusal::new(
                ErrorCode::RematchRefused,
                "only the players can ask for a rematch",
            ));
        }
        if self.tournament.is_some() {
            return Err(Refusal::new(
                ErrorCode::RematchRefused,
                "a tournament game has no rematch (the next round is paired by the event)",
            ));
        }
        if !self.game.is_over() {
            return Err(Refusal::new(
                ErrorCode::RematchRefused,
                "a rematch can be asked for when the game is over",
            ));
        }
        let mut r = match self.rematch.clone() {
            Some(r) => r,
            None => {
                let (seats, tokens) = rematch::plan(&self.seats, &held);
                let (fresh, variant, options) = self.game.fresh();
                let r = Rematch {
                    id: new_game_id(),
                    accepted: Vec::new(),
                    tokens,
                };
                let game = NewGame {
                    id: r.id.clone(),
                    variant,
                    options,
                    status: GameStatus::of(false, &seats),
                    ai_to_move: ai_to_move(&fresh, &seats),
                    tokens: r.tokens.iter().map(|t| (t.token.clone(), t.seat)).collect(),
                    // The same time control; the clocks start when every seat is taken.
                    clock: Self::clock_after(
                        self.clock
                            .as_ref()
                            .map(|c| Clock::new(c.control, seats.len())),
                        &fresh,
                        &seats,
                        None,
                        now_ms(),
                    ),
                    seats,
                };
                // Each account plays on at its player's new seat; a rated game's
                // rematch is rated too.
                let players = NewGameAccounts {
                    rated: self.rated,
                    accounts: r
                        .tokens
                        .iter()
                        .filter_map(|t| {
                            let a = self.accounts.iter().find(|a| a.seat == t.from)?;
                            Some((t.seat, a.account))
                        })
                        .collect(),
                };
                self.store
                    .create_rematch(self.id.clone(), r.clone(), game, players)
                    .await
                    .map_err(|e| e.refusal())?;
                r
            }
        };
        let mut accepted = r.accepted.clone();
        accepted.extend(held.iter().filter(|s| !r.accepted.contains(s)));
        accepted.sort_unstable();
        if accepted != r.accepted || self.rematch.is_none() {
            r.accepted = accepted;
            self.store
                .set_rematch(self.id.clone(), r.clone())
                .await
                .map_err(|e| e.refusal())?;
            self.rematch = Some(r.clone());
            self.broadcast_state();
        }
        let text = ServerMsg::Rematch {
            id: &r.id,
            url: format!("/{}/{}", self.game.page(), r.id),
            tokens: r.tokens_for(&held),
        }
        .text();
        self.send_to(conn, text);
        Ok(())
    }

    /// Checks that the connection plays the side to move (and that its view is current).
    fn check_turn(&self, conn: u64, ply: Option<usize>) -> Result<(), Refusal> {
        if self.game.is_over() {
            return Err(Refusal::new(ErrorCode::GameOver, "the game is over"));
        }
        let seats = self
            .conns
            .get(&conn)
            .map(|c| c.seats.as_slice())
            .unwrap_or(&[]);
        if seats.is_empty() {
            return Err(Refusal::new(
                ErrorCode::NotJoined,
                "spectators cannot move: join with a seat token first",
            ));
        }
        if !all_seats_taken(&self.seats) {
            return Err(Refusal::new(
                ErrorCode::WaitingForOpponent,
                "waiting for the opponent to join: share this game's link; nobody moves before every seat is taken",
            ));
        }
        let p = self.game.player_to_move().unwrap_or(0);
        if !seats.contains(&p) {
            let whose = self.game.colour_to_move_name();
            return Err(Refusal::new(
                ErrorCode::NotYourTurn,
                format!("it is not your turn ({whose} is to move, played by seat {p})"),
            ));
        }
        if let Some(ply) = ply {
            if ply != self.game.ply() {
                return Err(Refusal::new(
                    ErrorCode::Stale,
                    format!(
                    "your view is out of date (ply {ply}, the game is at {}); the state follows",
                    self.game.ply()
                ),
                ));
            }
        }
        Ok(())
    }

    /// Persists the game's newest event with the clocks (`clock` is how they stood
    /// before it), then tells everybody; on a database failure the event is taken back
    /// so memory and disk agree.
    async fn commit_last(&mut self, clock: Option<Clock>) -> Result<(), Refusal> {
        let n = self.game.ply() - 1;
        let text = self.game.encode_last();
        let moved_by = (!self.game.last_is_time_out()).then(|| self.game.event_player(n));
        let clock = Self::clock_after(clock, &self.game, &self.seats, moved_by, now_ms());
        // Tournament tables play flat variants only.
        let result = match (&self.tournament, &self.game) {
            (Some(link), RoomGame::Flat(game)) if game.is_over() => {
                Some((link.clone(), online::game_result(game)))
            }
            _ => None,
        };
        let saved = self
            .store
            .append_event(
                self.id.clone(),
                crate::store::NewEvent {
                    ply: n,
                    event: text,
                    status: self.status(),
                    ai_to_move: ai_to_move(&self.game, &self.seats),
                    clock: clock.clone(),
                    result,
                },
            )
            .await;
        match saved {
            Err(e) => {
                let _ = self.game.undo();
                return Err(Refusal::new(
                    ErrorCode::Internal,
                    format!("the move could not be saved: {e}"),
                ));
            }
            Ok(true) => {
                if let Some(link) = &self.tournament {
                    self.tables_done.send(&link.tournament);
                }
            }
            Ok(false) => {}
        }
        self.clock = clock;
        for notice in self.game.notices_last(n) {
            self.broadcast(notice);
        }
        if self.game.is_over() {
            self.broadcast(ServerMsg::GameOver { ply: n + 1 }.text());
            if self.rated {
                tokio::spawn(crate::ratings::settle(self.store.clone(), self.id.clone()));
            }
        }
        self.broadcast_state();
        self.maybe_start_ai();
        Ok(())
    }

    /// Takes back events up to and including the last one made by one of `seats`.
    async fn undo(&mut self, seats: &[usize]) -> Result<(), Refusal> {
        let len = self.game.ply();
        let Some(last_own) = (0..len)
            .rev()
            .find(|&n| seats.contains(&self.game.event_player(n)))
        else {
            return Err(Refusal::new(
                ErrorCode::UndoRefused,
                "you have no move to take back",
            ));
        };
        let mut trial = self.game.clone();
        while trial.ply() > last_own {
            trial
                .undo()
                .map_err(|e| Refusal::new(ErrorCode::Internal, e))?;
        }
        let status = GameStatus::of(trial.is_over(), &self.seats);
        let ai = ai_to_move(&trial, &self.seats);
        // Time spent stays spent: the clock of whoever is to move after the undo runs.
        let clock = Self::clock_after(self.clock.clone(), &trial, &self.seats, None, now_ms());
        if let Err(e) = self
            .store
            .truncate_events(self.id.clone(), last_own, status, ai, clock.clone())
            .await
        {
            return Err(Refusal::new(
                ErrorCode::Internal,
                format!("undo could not be saved: {e}"),
            ));
        }
        self.game = trial;
        self.clock = clock;
        // An AI answer computed for a later ply is now stale; ai_done drops it.
        self.ai_pending = None;
        self.ai_thinking = false;
        self.broadcast(ServerMsg::Undo { ply: last_own }.text());
        self.broadcast_state();
        self.maybe_start_ai();
        Ok(())
    }

    /// If an AI seat is to move and not already thinking, starts it on a blocking thread.
    fn maybe_start_ai(&mut self) {
        let Some(p) = self.game.player_to_move() else {
            return;
        };
        let ply = self.game.ply();
        if self.ai_pending == Some(ply) {
            return;
        }
        let Some(seat) = self.seats.get(p) else {
            return;
        };
        if seat.kind != SeatKind::Ai || !all_seats_taken(&self.seats) {
            return;
        }
        let level = seat.level.unwrap_or(AiLevel::DEFAULT);
        // On a clock, the AI thinks for a share of its time left (never flagging in
        // normal play); its level still caps the search.
        let budget = self
            .clock
            .as_ref()
            .and_then(|c| clock::ai_seconds(c.control, c.left(p, now_ms())))
            .map_or(Budget::default(), |s| Budget {
                seconds: Some(s),
                simulations: Some(blokus_ai::mcts::level_simulations(level.get())),
            });
        self.ai_pending = Some(ply);
        self.ai_thinking = false;
        let game = self.game.clone();
        let tx = self.ai_tx.clone();
        let cpu = self.cpu.clone();
        let queued_at = now_ms();
        tokio::spawn(async move {
            let started = tx.clone();
            // A failed search (or a stopping server) gives no decision; ai_done then
            // plays a legal move so the game never stalls.
            let decision = match cpu
                .run(move |_| {
                    let waited_ms = now_ms() - queued_at;
                    let _ = started.send(AiEvent::Started { ply, waited_ms });
                    game.think(level, rand::random(), budget)
                })
                .await
            {
                Ok(d) => Some(d),
                // Stopping: no move at all, the game goes on after the restart.
                Err(AppError::Busy(_)) => return,
                Err(_) => None,
            };
            let _ = tx.send(AiEvent::Done(AiResult { ply, decision }));
        });
    }

    /// The AI's search got its CPU slot: the time its seat waited in the queue (the one
    /// limiter of CPU-heavy work, shared by every game) is not charged, so its clock
    /// runs only while it thinks, and a busy server never makes it lose on time.
    fn ai_started(&mut self, ply: usize, waited_ms: i64) {
        if self.ai_pending != Some(ply) || self.game.ply() != ply {
            return; // stale: the game moved on (undo) meanwhile
        }
        self.ai_thinking = true;
        let mover = self.game.player_to_move();
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        if clock.running.is_some_and(|r| Some(r.player) == mover) {
            clock.shift(waited_ms);
            if waited_ms >= SHOWN_WAIT_MS {
                self.broadcast_state();
            }
        }
    }

    async fn ai_done(&mut self, r: AiResult) {
        if self.ai_pending != Some(r.ply) || self.game.ply() != r.ply {
            return; // stale: the game moved on (undo) meanwhile
        }
        self.ai_pending = None;
        self.ai_thinking = false;
        let ok = r.decision.is_some_and(|d| self.game.apply_ai(d));
        // A player that fails or errs must not stall the game: fall back to the first
        // legal move (or keep at the pie choice).
        if !ok && !self.game.play_fallback() {
            return;
        }
        if let Err(e) = self.commit_last(self.clock.clone()).await {
            self.broadcast(ServerMsg::error(&e));
        }
    }
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The name a seat played from an account shows: the account's user name (user names
/// are always valid display names).
pub fn account_name(player: &Player) -> DisplayName {
    DisplayName::try_from(player.name.clone())
        .expect("user names are valid display names (ASCII letters, digits, - and _)")
}

fn parse_name(text: String) -> Result<DisplayName, Refusal> {
    DisplayName::try_from(text).map_err(|m| Refusal::new(ErrorCode::BadName, m))
}

fn not_held() -> Refusal {
    Refusal::new(ErrorCode::Forbidden, "you can only name a seat you hold")
}

/// Names seats held by one connection: `seat` alone if given (it must be held), else
/// the person's own seats (not the hot-seat seats of other people at the device,
/// unless those are all it holds). Returns whether a name changed.
fn name_seats(
    seats: &mut [Seat],
    held: &[usize],
    seat: Option<usize>,
    name: &DisplayName,
) -> Result<bool, Refusal> {
    let targets: Vec<usize> = match seat {
        Some(s) if held.contains(&s) => vec![s],
        Some(_) => return Err(not_held()),
        None => {
            let own: Vec<usize> = held
                .iter()
                .copied()
                .filter(|&s| seats[s].kind != SeatKind::Hotseat)
                .collect();
            if own.is_empty() {
                held.to_vec()
            } else {
                own
            }
        }
    };
    let mut changed = false;
    for s in targets {
        if seats[s].name.as_ref() != Some(name) {
            seats[s].name = Some(name.clone());
            changed = true;
        }
    }
    Ok(changed)
}
