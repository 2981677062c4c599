//! A guest's seats in games another server owns, attached at sign-up through that server.
//!
//! With several servers on one database, the game of a guest's seat may be live on
//! another server, whose room holds the seats in memory and writes them back: the seat
//! is attached by that room (the owner), not behind its back. The signing-up server asks
//! the owner with `POST /api/games/{id}/account-seat`, a call between servers only
//! ([`crate::proxy::Internal`]); when the game has no owner any more, it loads the room
//! itself.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use super::{AccountId, Player};
use crate::error::AppError;
use crate::hub::Hub;
use crate::proxy::Internal;
use crate::room::RoomMsg;

/// Tries at attaching a seat while its game moves between servers.
const TRIES: usize = 3;
/// Pause between tries (a lease changes hands within seconds).
const PAUSE: Duration = Duration::from_millis(500);
/// How long the owning server may take to answer.
const WAIT: Duration = Duration::from_secs(5);

/// The body of `POST /api/games/{id}/account-seat`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachSeat {
    /// Seat index.
    pub seat: usize,
    /// The account's id.
    pub account: i64,
    /// The account's user name.
    pub name: String,
}

/// The answer of `POST /api/games/{id}/account-seat`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Attached {
    /// Whether the seat was attached (not when it has an account already or is a
    /// hot-seat companion's).
    pub attached: bool,
}

/// Attaches `seat` of `game` to `player` through the server that owns the game, or here
/// when nobody does; answers whether it was attached.
///
/// # Errors
/// The last failure when the game's owner could not be reached in [`TRIES`] tries.
pub async fn attach(hub: &Hub, game: &str, seat: usize, player: &Player) -> Result<bool, AppError> {
    let mut last = AppError::Busy(format!("game {game} is between servers"));
    for _ in 0..TRIES {
        let owner = hub.store.owner_elsewhere(game).await?;
        let tried = match (owner, &hub.forwarder) {
            (Some(owner), Some(fwd)) => {
                let body = AttachSeat {
                    seat,
                    account: player.account.0,
                    name: player.name.clone(),
                };
                let body = serde_json::to_vec(&body).expect("a request serialises");
                let path = format!("/api/games/{game}/account-seat");
                match fwd.call(&owner, &path, body, WAIT).await {
                    Ok((StatusCode::OK, answer)) => serde_json::from_slice::<Attached>(&answer)
                        .map(|a| a.attached)
                        .map_err(|e| AppError::Internal(format!("{owner} answered: {e}"))),
                    Ok((status, answer)) => Err(AppError::Busy(format!(
                        "{owner} answered {status}: {}",
                        String::from_utf8_lossy(&answer)
                    ))),
                    Err(e) => Err(e),
                }
            }
            _ => attach_here(hub, game, seat, player.clone()).await,
        };
        match tried {
            Ok(attached) => return Ok(attached),
            Err(e) => last = e,
        }
        tokio::time::sleep(PAUSE).await;
    }
    Err(last)
}

/// Attaches the seat through the game's room on this server (loading it, which takes
/// the game's lease).
async fn attach_here(hub: &Hub, game: &str, seat: usize, player: Player) -> Result<bool, AppError> {
    hub.ask(game, |reply| RoomMsg::AttachAccount {
        seat,
        player,
        reply,
    })
    .await?
}

/// `POST /api/games/{id}/account-seat`: another server of the database asks this one,
/// which owns the game, to attach a seat to an account.
pub async fn from_peer(
    State(hub): State<Hub>,
    internal: Option<Extension<Internal>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Attached>, AppError> {
    if internal.is_none() {
        return Err(AppError::Forbidden(
            "only the servers sharing this database may attach seats".into(),
        ));
    }
    let req: AttachSeat = serde_json::from_slice(&body)
        .map_err(|e| AppError::BadRequest(format!("bad seat attachment: {e}")))?;
    let player = Player {
        account: AccountId(req.account),
        name: req.name,
    };
    let attached = attach_here(&hub, &id, req.seat, player).await?;
    Ok(Json(Attached { attached }))
}
