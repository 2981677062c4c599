//! The registry of live rooms and the shared server state: loads rooms from the store on
//! demand, bounds their number, and counts connections.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use std::net::IpAddr;
use std::time::{Duration, Instant};

use tokio::sync::{oneshot, watch, Mutex, Semaphore};

use crate::cpu::Cpu;
use crate::hints::Hints;

use crate::error::AppError;
use crate::room::{self, RoomHandle, RoomMsg};

/// How long a room without connections stays in memory.
pub const ROOM_IDLE: Duration = Duration::from_secs(120);
/// How often the server notes that it runs and looks for clocks run out in rooms not
/// in memory.
const CLOCK_EVERY: Duration = Duration::from_secs(5);
/// How often idle rooms are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(30);
use crate::listen::PerAddress;
use crate::presence::Presence;
use crate::seats::is_game_id;
use crate::store::Store;
use crate::ws::Bucket;

/// Token buckets per client address (game creations, wrong tokens).
#[derive(Clone)]
pub struct AddressBuckets {
    map: Arc<std::sync::Mutex<HashMap<IpAddr, Bucket>>>,
    per_second: f64,
    burst: f64,
}

impl AddressBuckets {
    /// Buckets of `per_minute` tokens a minute, bursts up to `burst`.
    pub fn new(per_minute: f64, burst: f64) -> AddressBuckets {
        AddressBuckets {
            map: Arc::default(),
            per_second: per_minute / 60.0,
            burst,
        }
    }

    fn with<T>(&self, ip: IpAddr, f: impl FnOnce(&mut Bucket, Instant) -> T) -> T {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if map.len() > 10_000 {
            // Full buckets carry no information: forget them so the map stays bounded.
            map.retain(|_, b| !b.is_full(now));
        }
        let b = map
            .entry(ip)
            .or_insert_with(|| Bucket::new(self.per_second, self.burst));
        f(b, now)
    }

    /// Takes a token of `ip` if it has one.
    pub fn take(&self, ip: IpAddr) -> bool {
        self.with(ip, |b, now| b.take(now))
    }

    /// Whether `ip` has a token left.
    pub fn has(&self, ip: IpAddr) -> bool {
        self.with(ip, |b, now| b.has(now))
    }

    /// Charges `n` tokens to `ip` (into debt).
    pub fn spend(&self, ip: IpAddr, n: f64) {
        if n > 0.0 {
            self.with(ip, |b, now| b.spend(now, n));
        }
    }
}

/// Limits of one server.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Rooms kept in memory at once.
    pub max_rooms: usize,
    /// Open WebSocket connections at once.
    pub max_connections: usize,
    /// Largest WebSocket message, bytes.
    pub max_message: usize,
    /// Largest HTTP request body, bytes.
    pub max_body: usize,
    /// Messages a connection may send per second on average.
    pub msgs_per_second: f64,
    /// Messages a connection may send in a burst.
    pub msg_burst: f64,
    /// Games one client address may create per minute on average.
    pub creates_per_minute: f64,
    /// Games one client address may create in a burst.
    pub create_burst: f64,
    /// WebSocket connections one client address may hold at once.
    pub ws_per_address: usize,
    /// HTTP connections one client address may hold open at once.
    pub http_per_address: usize,
    /// Time a client has to send a request's headers (also the idle keep-alive time).
    pub header_timeout: Duration,
    /// Time a request may take, body included.
    pub request_timeout: Duration,
    /// Interval of the server's WebSocket pings.
    pub ws_ping_every: Duration,
    /// A WebSocket that sends nothing (not even a pong) for this long is closed.
    pub ws_idle: Duration,
    /// Wrong seat tokens one address may try per minute on average.
    pub guesses_per_minute: f64,
    /// Wrong seat tokens one address may try in a burst.
    pub guess_burst: f64,
    /// A running game without a move is left out of the lobby's list once nobody has
    /// been connected to it for this long.
    pub abandoned_after: Duration,
    /// Login attempts per address and per user name.
    pub logins: crate::accounts::limits::LoginLimits,
    /// CPU-heavy jobs (AI moves, hints, analyses) run at once; the others wait their
    /// turn. One per core by default.
    pub cpu_jobs: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rooms: 2000,
            max_connections: 4000,
            max_message: 4096,
            max_body: 16 * 1024,
            msgs_per_second: 5.0,
            msg_burst: 20.0,
            creates_per_minute: 20.0,
            create_burst: 30.0,
            ws_per_address: 64,
            http_per_address: 256,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            ws_ping_every: Duration::from_secs(25),
            ws_idle: Duration::from_secs(60),
            guesses_per_minute: 30.0,
            guess_burst: 20.0,
            abandoned_after: Duration::from_secs(15 * 60),
            logins: crate::accounts::limits::LoginLimits::default(),
            cpu_jobs: Cpu::cores(),
        }
    }
}

/// State shared by every request handler.
#[derive(Clone)]
pub struct Hub {
    /// The database.
    pub store: Store,
    /// The limits.
    pub limits: Limits,
    rooms: Arc<Mutex<HashMap<String, RoomHandle>>>,
    /// Rooms being loaded from the store, outside the lock of `rooms` (a read waits for
    /// the database's next commit, and every room lookup needs that lock). Entries are
    /// added while `rooms` is locked and removed when the load ends, either way (see
    /// [`Loading`]); the receiver then wakes.
    loading: Arc<std::sync::Mutex<HashMap<String, watch::Receiver<()>>>>,
    /// Permits for WebSocket connections.
    pub connections: Arc<Semaphore>,
    next_conn: Arc<AtomicU64>,
    creators: AddressBuckets,
    /// Wrong seat tokens per address.
    pub guesses: AddressBuckets,
    /// WebSocket connections per address.
    pub ws_addresses: PerAddress,
    /// The limiter of CPU-heavy work (AI moves, hints).
    pub cpu: Cpu,
    /// Puzzle hints and the solutions they found.
    pub hints: Hints,
    /// Game analyses waiting and running.
    pub analyses: crate::analysis::Queue,
    /// The games without a move somebody has open (for the lobby).
    pub presence: Presence,
    /// Tells the online tournaments that a table's result is in.
    pub tables_done: crate::tournaments::online::TablesDone,
    /// With a shared database: forwards requests for games other servers own.
    pub forwarder: Option<crate::proxy::Forwarder>,
    /// Reverse proxies whose forwarding headers name the client.
    pub trusted_proxies: crate::client_address::TrustedProxies,
    stopping: Arc<std::sync::atomic::AtomicBool>,
}

impl Hub {
    /// A hub over a store. Starts a task that evicts idle rooms (must be called inside a
    /// tokio runtime).
    pub fn new(store: Store, limits: Limits) -> Hub {
        let cpu = Cpu::new(limits.cpu_jobs);
        let (tables_done, results_in) = crate::tournaments::online::TablesDone::channel();
        let hub = Hub {
            store,
            limits,
            rooms: Arc::new(Mutex::new(HashMap::new())),
            loading: Arc::default(),
            connections: Arc::new(Semaphore::new(limits.max_connections)),
            next_conn: Arc::new(AtomicU64::new(1)),
            creators: AddressBuckets::new(limits.creates_per_minute, limits.create_burst),
            guesses: AddressBuckets::new(limits.guesses_per_minute, limits.guess_burst),
            ws_addresses: PerAddress::default(),
            hints: Hints::new(cpu.clone()),
            analyses: crate::analysis::Queue::default(),
            cpu,
            presence: Presence::default(),
            tables_done,
            forwarder: None,
            trusted_proxies: Default::default(),
            stopping: Arc::default(),
        };
        let timekeeper = hub.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(CLOCK_EVERY);
            loop {
                tick.tick().await;
                timekeeper.keep_time().await;
            }
        });
        tokio::spawn(crate::tournaments::online::drive(hub.clone(), results_in));
        let sweeper = hub.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            loop {
                tick.tick().await;
                sweeper.evict_idle(ROOM_IDLE).await;
            }
        });
        hub
    }

    /// Notes that the server runs (so a restart knows how long it was down) and loads
    /// the rooms of games whose running clock has reached zero, so their time out is
    /// recorded even when nobody watches (live rooms do it themselves, at once).
    pub async fn keep_time(&self) {
        let now = crate::clock::now_ms();
        let _ = self.store.alive(now).await;
        if let Ok(ids) = self.store.clocks_due(now).await {
            for id in ids {
                let _ = self.room(&id).await;
            }
        }
    }

    /// Removes from memory the rooms idle for `idle` (no connection, no AI work, no
    /// request). The map stays locked meanwhile, so nobody gets an evicted room's handle.
    pub async fn evict_idle(&self, idle: Duration) -> usize {
        let mut rooms = self.rooms.lock().await;
        Self::evict(&self.store, &mut rooms, idle).await
    }

    async fn evict(
        store: &Store,
        rooms: &mut HashMap<String, RoomHandle>,
        idle: Duration,
    ) -> usize {
        // Every room is asked at once: asked one after the other, 2,000 rooms kept the
        // map locked (and every connection waiting) for tens of milliseconds under load.
        let asked = rooms.iter().map(|(id, h)| async move {
            let (tx, rx) = oneshot::channel();
            let ended = match h.try_send(RoomMsg::Evict { idle, reply: tx }).await {
                Ok(()) => rx.await.unwrap_or(true),
                Err(_) => true,
            };
            ended.then(|| id.clone())
        });
        let gone: Vec<String> = futures_util::future::join_all(asked)
            .await
            .into_iter()
            .flatten()
            .collect();
        for id in &gone {
            rooms.remove(id);
            // Another server may serve the game from now on. Still under the map's lock,
            // so this server cannot take the lease again meanwhile.
            let _ = store.release(id).await;
        }
        gone.len()
    }

    /// Sends a message to a game's room, loading the room if needed (and again if it
    /// ended meanwhile).
    ///
    /// # Errors
    /// As [`Hub::room`].
    pub async fn send(&self, id: &str, mut msg: RoomMsg) -> Result<RoomHandle, AppError> {
        for _ in 0..3 {
            let h = self.room(id).await?;
            match h.try_send(msg).await {
                Ok(()) => return Ok(h),
                Err(m) => msg = m,
            }
        }
        Err(AppError::Busy(
            "the game room is restarting; try again".into(),
        ))
    }

    /// Sends a message to a game's room if it is live (in memory); a room loaded later
    /// reads the store, so the message is not needed then.
    pub async fn tell_if_live(&self, id: &str, msg: RoomMsg) {
        let h = loop {
            let rooms = self.rooms.lock().await;
            if let Some(h) = rooms.get(id) {
                break Some(h.clone());
            }
            // A room being loaded may have read the store before the change: wait.
            let Some(mut done) = self.loading().get(id).cloned() else {
                break None;
            };
            drop(rooms);
            let _ = done.changed().await;
        };
        if let Some(h) = h {
            // A room that ended meanwhile reloads from the store when next asked for.
            let _ = h.try_send(msg).await;
        }
    }

    /// Sends a request carrying a reply channel to a game's room and awaits the answer.
    ///
    /// # Errors
    /// As [`Hub::room`], or if the room stops before answering.
    pub async fn ask<T>(
        &self,
        id: &str,
        make: impl FnOnce(oneshot::Sender<T>) -> RoomMsg,
    ) -> Result<T, AppError> {
        let (tx, rx) = oneshot::channel();
        self.send(id, make(tx)).await?;
        rx.await
            .map_err(|_| AppError::Internal("the game room stopped".into()))
    }

    /// Takes a game-creation token of a client address.
    ///
    /// # Errors
    /// [`AppError::RateLimited`] when the address creates games too fast.
    pub fn allow_create(&self, ip: IpAddr) -> Result<(), AppError> {
        if self.creators.take(ip) {
            Ok(())
        } else {
            Err(AppError::RateLimited(
                "too many new games from your address; wait a minute".into(),
            ))
        }
    }

    /// A fresh connection id.
    pub fn conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// The room of a game, loading it from the store if it is not live.
    ///
    /// # Errors
    /// [`AppError::NotFound`] for an unknown id, [`AppError::Busy`] at the room limit.
    pub async fn room(&self, id: &str) -> Result<RoomHandle, AppError> {
        if !is_game_id(id) {
            return Err(AppError::NotFound(format!(
                "no game '{}'",
                id.chars().take(40).collect::<String>()
            )));
        }
        loop {
            let mut rooms = self.rooms.lock().await;
            if let Some(h) = rooms.get(id) {
                if !h.is_closed() {
                    return Ok(h.clone());
                }
            }
            let underway = self.loading().get(id).cloned();
            if let Some(mut done) = underway {
                drop(rooms);
                // Wakes when that load ends, whichever way; then look again.
                let _ = done.changed().await;
                continue;
            }
            self.make_way(&mut rooms).await?;
            // With a shared database the lease comes first, so no other server changes
            // the game after it is read.
            if !self.store.acquire(id).await? {
                return Err(AppError::Busy(format!(
                    "game {id} is being served by another server; try again"
                )));
            }
            let guard = Loading::start(&self.loading, id);
            drop(rooms);
            let stored = self.store.load_game(id.to_string()).await;
            let mut rooms = self.rooms.lock().await;
            drop(guard);
            // A room loaded after the shutdown emptied the map would never be ended.
            let stopping = self.is_stopping();
            let stored = match stored {
                Ok(Some(g)) if !stopping => g,
                other => {
                    let _ = self.store.release(id).await;
                    if stopping {
                        return Err(AppError::Busy("the server is stopping".into()));
                    }
                    other?;
                    return Err(AppError::NotFound(format!("no game '{id}'")));
                }
            };
            let h = room::spawn(
                stored,
                self.store.clone(),
                self.cpu.clone(),
                self.guesses.clone(),
                self.presence.clone(),
                self.tables_done.clone(),
            )?;
            rooms.insert(id.to_string(), h.clone());
            return Ok(h);
        }
    }

    fn loading(&self) -> std::sync::MutexGuard<'_, HashMap<String, watch::Receiver<()>>> {
        self.loading.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes sure one more room fits: at the limit, rooms nobody uses leave memory at
    /// once (they come back on demand).
    async fn make_way(&self, rooms: &mut HashMap<String, RoomHandle>) -> Result<(), AppError> {
        let full = |rooms: &HashMap<String, RoomHandle>| {
            rooms.len() + self.loading().len() >= self.limits.max_rooms
        };
        if full(rooms) {
            rooms.retain(|_, h| !h.is_closed());
        }
        if full(rooms) {
            Self::evict(&self.store, rooms, Duration::ZERO).await;
        }
        if full(rooms) {
            return Err(AppError::Busy(
                "too many games are live; try again later".into(),
            ));
        }
        Ok(())
    }

    /// Whether a new game's room would fit now.
    ///
    /// # Errors
    /// [`AppError::Busy`] at the room limit.
    pub async fn check_room_for_new_game(&self) -> Result<(), AppError> {
        let mut rooms = self.rooms.lock().await;
        self.make_way(&mut rooms).await
    }

    /// Stops the server's work: CPU-heavy jobs first, then every room finishes what it
    /// is doing (a move being saved is saved), says goodbye to its connections and ends;
    /// with a shared database its games are released to the other servers at once.
    pub async fn shutdown(&self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.cpu.stop();
        // From now on the server is down: a restart does not charge that time.
        let _ = self.store.alive(crate::clock::now_ms()).await;
        let rooms: Vec<RoomHandle> = self.rooms.lock().await.drain().map(|(_, h)| h).collect();
        for h in rooms {
            Self::end_room(h).await;
        }
        let _ = self.store.leave().await;
    }

    /// Asks a room to end, saying goodbye to its connections (they reconnect).
    async fn end_room(h: RoomHandle) {
        let (tx, rx) = oneshot::channel();
        if h.try_send(RoomMsg::Shutdown { reply: tx }).await.is_ok() {
            let _ = tokio::time::timeout(Duration::from_secs(5), rx).await;
        }
    }

    /// Whether the server is stopping.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::Relaxed)
    }

    /// Whether a game's room is live on this server (without loading it).
    pub async fn is_live(&self, id: &str) -> bool {
        self.rooms
            .lock()
            .await
            .get(id)
            .is_some_and(|h| !h.is_closed())
    }

    /// Ends the rooms of the games this server no longer owns (another server took them
    /// over), among those loaded before `asked` (when the list of `owned` games was
    /// asked for; later ones took their lease after it): their connections are told to
    /// reconnect and then reach the new owner.
    pub async fn keep_only(&self, owned: &[String], asked: Instant) {
        let owned: std::collections::HashSet<&str> = owned.iter().map(String::as_str).collect();
        let lost: Vec<RoomHandle> = {
            let mut rooms = self.rooms.lock().await;
            let ids: Vec<String> = rooms
                .iter()
                .filter(|(id, h)| h.started() < asked && !owned.contains(id.as_str()))
                .map(|(id, _)| id.clone())
                .collect();
            ids.iter().filter_map(|id| rooms.remove(id)).collect()
        };
        for h in lost {
            Self::end_room(h).await;
        }
    }

    /// Number of live rooms (for tests and monitoring).
    pub async fn live_rooms(&self) -> usize {
        self.rooms
            .lock()
            .await
            .values()
            .filter(|h| !h.is_closed())
            .count()
    }
}

/// A room load under way: registered while it lives, and its waiters woken when it
/// ends, also when the loading request is dropped half-way (a client that went away).
struct Loading<'a> {
    map: &'a std::sync::Mutex<HashMap<String, watch::Receiver<()>>>,
    id: String,
    _done: watch::Sender<()>,
}

impl<'a> Loading<'a> {
    fn start(map: &'a std::sync::Mutex<HashMap<String, watch::Receiver<()>>>, id: &str) -> Self {
        let (done, waiting) = watch::channel(());
        map.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string(), waiting);
        Loading {
            map,
            id: id.to_string(),
            _done: done,
        }
    }
}

impl Drop for Loading<'_> {
    fn drop(&mut self) {
        // Removed before the sender goes (fields drop after this), so a woken waiter
        // does not find it again.
        self.map
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seats::{new_game_id, Seat, SeatKind};

    /// A hub over a fresh SQLite store (the folder lives as long as the first value).
    fn test_hub() -> (tempfile::TempDir, Store, Hub) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let hub = Hub::new(store.clone(), Limits::default());
        (dir, store, hub)
    }

    /// Stores a running Duo game between two people and answers its id.
    async fn stored_game(store: &Store) -> String {
        let id = new_game_id();
        let me = Seat::new(SeatKind::Me, None);
        store
            .create_game(crate::store::NewGame {
                id: id.clone(),
                variant: "duo".into(),
                options: "{}".into(),
                seats: vec![me.clone(), me],
                status: crate::seats::GameStatus::Running,
                ai_to_move: false,
                tokens: vec![],
                clock: None,
            })
            .await
            .unwrap();
        id
    }

    #[tokio::test]
    async fn idle_rooms_leave_memory_and_come_back_on_demand() {
        let (_dir, store, hub) = test_hub();
        let id = stored_game(&store).await;
        hub.room(&id).await.unwrap();
        assert_eq!(hub.live_rooms().await, 1);
        // Recently used rooms stay.
        assert_eq!(hub.evict_idle(Duration::from_secs(60)).await, 0);
        assert_eq!(hub.evict_idle(Duration::ZERO).await, 1);
        assert_eq!(hub.live_rooms().await, 0);
        let state = hub
            .ask(&id, |reply| RoomMsg::Snapshot { legal: true, reply })
            .await
            .unwrap();
        assert_eq!(state.legal.unwrap().0.len(), 414);
        assert_eq!(hub.live_rooms().await, 1);
        assert!(matches!(hub.room("nope").await, Err(AppError::NotFound(_))));
    }

    #[tokio::test]
    async fn a_room_being_loaded_holds_up_nobody_else() {
        let (_dir, store, hub) = test_hub();
        let live = stored_game(&store).await;
        let cold = stored_game(&store).await;
        let live_room = hub.room(&live).await.unwrap();
        // The database is busy (as under load, where a read waits for the next commit):
        // loading the cold game's room waits for it, twice at once.
        let (release, held) = std::sync::mpsc::channel();
        let holding = tokio::spawn({
            let store = store.clone();
            async move { store.hold_database(held).await }
        });
        let loads: Vec<_> = (0..2)
            .map(|_| {
                let hub = hub.clone();
                let cold = cold.clone();
                tokio::spawn(async move { hub.room(&cold).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        // The live room is found meanwhile (it waited for the load before).
        let found = tokio::time::timeout(Duration::from_secs(10), hub.room(&live)).await;
        release.send(()).unwrap();
        let found = found.expect("a live room's lookup waited for another room's load");
        assert!(found.unwrap().same_room(&live_room));
        holding.await.unwrap();
        let mut loaded = Vec::new();
        for l in loads {
            loaded.push(l.await.unwrap().unwrap());
        }
        // Both asked for the cold room and got the same one: it was loaded once.
        assert!(loaded[0].same_room(&loaded[1]));
        assert_eq!(hub.live_rooms().await, 2);
    }

    #[tokio::test]
    async fn one_address_cannot_create_games_without_end() {
        let (_dir, _, hub) = test_hub();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..30 {
            hub.allow_create(a).unwrap();
        }
        assert!(matches!(hub.allow_create(a), Err(AppError::RateLimited(_))));
        hub.allow_create(b).unwrap();
    }
}
