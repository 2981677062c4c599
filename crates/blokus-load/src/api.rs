//! The HTTP side of the API that the harness uses, from a given loopback source address.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde_json::json;

use crate::wire::{Created, Listed, Listing, SeatToken, StoredGame, VariantInfo};

/// Why a request failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ApiError {
    /// The server answered with an error status.
    #[error("HTTP {0}: {1}")]
    Status(u16, String),
    /// No answer (connection refused or broken, timeout) or an unreadable one.
    #[error("{0}")]
    Transport(String),
}

impl ApiError {
    /// A short key for counting: the status, or `transport`.
    pub fn key(&self) -> String {
        match self {
            ApiError::Status(s, _) => s.to_string(),
            ApiError::Transport(_) => "transport".into(),
        }
    }
}

/// A seat of a game to create.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatPlan {
    /// The creator (gets a token).
    Me,
    /// Another person, who claims it with `join`.
    Human,
    /// The server's AI at this level.
    Ai(u8),
}

/// An HTTP client of one server, sending from one source address.
#[derive(Clone)]
pub struct Api {
    client: reqwest::Client,
    base: String,
}

impl Api {
    /// A client of the server at `server`, connecting from `source`.
    ///
    /// # Errors
    /// If the client cannot be built.
    pub fn new(server: SocketAddr, source: IpAddr) -> Result<Api, ApiError> {
        let client = reqwest::Client::builder()
            .local_address(source)
            .timeout(Duration::from_secs(20))
            .build()
            .map_err(|e| ApiError::Transport(e.to_string()))?;
        Ok(Api {
            client,
            base: format!("http://{server}"),
        })
    }

    async fn send<T: DeserializeOwned>(&self, req: reqwest::RequestBuilder) -> Result<T, ApiError> {
        let resp = req
            .send()
            .await
            .map_err(|e| ApiError::Transport(e.to_string()))?;
        let status = resp.status();
        if !status.is_success() {
            let body = resp.text().await.unwrap_or_default();
            return Err(ApiError::Status(status.as_u16(), body));
        }
        resp.json()
            .await
            .map_err(|e| ApiError::Transport(format!("unreadable answer: {e}")))
    }

    /// `GET /api/variants/{id}`.
    pub async fn variant(&self, id: &str) -> Result<VariantInfo, ApiError> {
        self.send(self.client.get(format!("{}/api/variants/{id}", self.base)))
            .await
    }

    /// `POST /api/games`.
    pub async fn create(&self, variant: &str, seats: &[SeatPlan]) -> Result<Created, ApiError> {
        let seats: Vec<_> = seats
            .iter()
            .map(|s| match s {
                SeatPlan::Me => json!({"kind": "me"}),
                SeatPlan::Human => json!({"kind": "human"}),
                SeatPlan::Ai(level) => json!({"kind": "ai", "level": level}),
            })
            .collect();
        let body = json!({"variant": variant, "seats": seats});
        self.send(
            self.client
                .post(format!("{}/api/games", self.base))
                .json(&body),
        )
        .await
    }

    /// `POST /api/games/{id}/join` for one seat.
    pub async fn join(&self, id: &str, seat: usize) -> Result<SeatToken, ApiError> {
        let url = format!("{}/api/games/{id}/join", self.base);
        self.send(self.client.post(url).json(&json!({"seat": seat})))
            .await
    }

    /// `GET /api/games/{id}`.
    pub async fn state(&self, id: &str) -> Result<StoredGame, ApiError> {
        self.send(self.client.get(format!("{}/api/games/{id}", self.base)))
            .await
    }

    /// `GET /api/games?mine=...`: the stored games of these tokens (read from the
    /// database without loading the games' rooms).
    pub async fn mine(&self, tokens: &[String]) -> Result<Vec<Listed>, ApiError> {
        let url = format!("{}/api/games?mine={}", self.base, tokens.join(","));
        let l: Listing = self.send(self.client.get(url)).await?;
        Ok(l.mine)
    }
}
