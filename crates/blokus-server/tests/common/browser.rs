//! A browser talking to the account API: it keeps its session cookie and the CSRF token
//! its pages were given, and sends them (with this site's Origin) as a page would.

use serde_json::{json, Value};

use super::TestServer;

/// A browser: its session cookie and the CSRF token its pages were given.
#[derive(Clone, Default)]
pub struct Browser {
    /// The session cookie's value.
    pub cookie: Option<String>,
    /// The CSRF token the pages were given.
    pub csrf: Option<String>,
}

/// An answer as a browser sees it.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub set_cookie: Option<String>,
}

impl Browser {
    pub async fn request(
        &mut self,
        server: &TestServer,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        extra: &[(&str, &str)],
    ) -> Answer {
        let mut r = reqwest::Client::new().request(method, server.url(path));
        if !extra.iter().any(|(k, _)| *k == "origin") {
            r = r.header("origin", format!("http://{}", server.addr));
        }
        if let Some(c) = &self.cookie {
            r = r.header("cookie", format!("blokus_session={c}"));
        }
        if let Some(t) = &self.csrf {
            r = r.header("x-csrf-token", t);
        }
        for (k, v) in extra {
            r = r.header(*k, *v);
        }
        if let Some(b) = body {
            r = r.json(&b);
        }
        let res = r.send().await.unwrap();
        let status = res.status().as_u16();
        let set_cookie = res
            .headers()
            .get("set-cookie")
            .map(|v| v.to_str().unwrap().to_string());
        if let Some(sc) = &set_cookie {
            let value = sc
                .strip_prefix("blokus_session=")
                .unwrap()
                .split(';')
                .next()
                .unwrap();
            self.cookie = (!value.is_empty()).then(|| value.to_string());
        }
        let body: Value = res.json().await.unwrap_or(Value::Null);
        if let Some(t) = body["csrf"].as_str() {
            self.csrf = Some(t.to_string());
        }
        Answer {
            status,
            body,
            set_cookie,
        }
    }

    pub async fn post(&mut self, server: &TestServer, path: &str, body: Value) -> Answer {
        self.request(server, reqwest::Method::POST, path, Some(body), &[])
            .await
    }

    pub async fn get(&mut self, server: &TestServer, path: &str) -> Answer {
        self.request(server, reqwest::Method::GET, path, None, &[])
            .await
    }

    pub async fn sign_up(server: &TestServer, name: &str, password: &str) -> Browser {
        let mut b = Browser::default();
        let a = b
            .post(
                server,
                "/api/accounts",
                json!({"name": name, "password": password}),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        b
    }

    /// Logs in (the answer tells how it went).
    pub async fn log_in(&mut self, server: &TestServer, name: &str, password: &str) -> Answer {
        self.post(
            server,
            "/api/login",
            json!({"name": name, "password": password}),
        )
        .await
    }

    pub async fn whoami(&mut self, server: &TestServer) -> Value {
        self.get(server, "/api/account").await.body["account"]["name"].clone()
    }
}

/// Limits for tests that play fast and log in often from one address.
pub fn roomy() -> blokus_server::Limits {
    blokus_server::Limits {
        msgs_per_second: 1000.0,
        msg_burst: 1000.0,
        logins: blokus_server::accounts::limits::LoginLimits {
            per_address_minute: 1000.0,
            address_burst: 1000.0,
            ..Default::default()
        },
        ..blokus_server::Limits::default()
    }
}

/// A browser signed up (and so logged in) as `name`, with the password `{name}'s secret`.
pub async fn signed_up(server: &TestServer, name: &str) -> Browser {
    Browser::sign_up(server, name, &format!("{name}'s secret")).await
}
