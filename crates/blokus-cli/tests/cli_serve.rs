//! `blokus serve` as a real process: it announces its address, creates its data
//! directory, serves the page and the API, and keeps games across `kill -9`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

struct Serve {
    child: Child,
    port: u16,
}

impl Serve {
    fn start(data: &std::path::Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_blokus"))
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("blokus starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "blokus: serving on http://127.0.0.1:PORT/ (data in ...)"
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Serve { child, port }
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out[9..12].parse().unwrap();
        let body = out.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
        (status, body)
    }

    /// SIGINT (Ctrl-C): the server stops gracefully; its exit status, within 20 s.
    fn interrupt(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        self.child.kill().unwrap();
        panic!("blokus serve did not stop within 20 s of Ctrl-C");
    }

    /// SIGKILL: no chance to flush or clean up.
    fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

#[test]
fn serve_creates_its_data_dir_and_keeps_games_across_kill_9() {
    let tmp = std::env::temp_dir().join(format!("blokus-cli-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let data = tmp.join("nested").join("data");
    let server = Serve::start(&data);
    assert!(data.join("blokus.sqlite3").exists());
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("Blokus"));
    let (status, created) = server.request(
        "POST",
        "/api/games",
        r#"{"variant":"trigon_3","seats":[{"kind":"me"},{"kind":"human"},{"kind":"ai","level":2}]}"#,
    );
    assert_eq!(status, 201, "{created}");
    let id = created.split("\"id\":\"").nth(1).unwrap()[..16].to_string();
    server.kill9();

    let server = Serve::start(&data);
    let (status, state) = server.request("GET", &format!("/api/games/{id}"), "");
    assert_eq!(status, 200, "{state}");
    assert!(state.contains("\"variant\":\"trigon_3\""), "{state}");
    assert!(state.contains("\"status\":\"open\""), "{state}");
    let (status, _) = server.request("GET", "/api/games/0000000000000000", "");
    assert_eq!(status, 404);
    server.kill9();
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn serve_reports_an_unusable_data_directory() {
    let file = std::env::temp_dir().join(format!("blokus-cli-serve-file-{}", std::process::id()));
    std::fs::write(&file, "not a directory").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(["serve", "--port", "0", "--data"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("data directory"), "{err}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_backup_taken_while_serving_restores_every_game_and_ctrl_c_stops_cleanly() {
    let tmp = std::env::temp_dir().join(format!("blokus-cli-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let data = tmp.join("data");
    let server = Serve::start(&data);
    let (status, created) = server.request(
        "POST",
        "/api/games",
        r#"{"variant":"duo","seats":[{"kind":"me"},{"kind":"hotseat"}]}"#,
    );
    assert_eq!(status, 201, "{created}");
    let id = created.split("\"id\":\"").nth(1).unwrap()[..16].to_string();

    let blokus = |args: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_blokus"))
            .args(args)
            .output()
            .unwrap()
    };
    let backup = tmp.join("backup.sqlite3");
    let out = blokus(&["backup".as_ref(), data.as_os_str(), backup.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A backup never overwrites a file.
    let out = blokus(&["backup".as_ref(), data.as_os_str(), backup.as_os_str()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists already"));

    // Ctrl-C: a clean stop.
    let status = server.interrupt();
    assert!(status.success(), "{status:?}");

    let restored = tmp.join("restored");
    let out = blokus(&["restore".as_ref(), backup.as_os_str(), restored.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let server = Serve::start(&restored);
    let (status, state) = server.request("GET", &format!("/api/games/{id}"), "");
    assert_eq!(status, 200, "{state}");
    assert!(state.contains("\"variant\":\"duo\""), "{state}");
    server.kill9();

    // Not a backup: refused by name, nothing written.
    let junk = tmp.join("junk.sqlite3");
    std::fs::write(&junk, "hello").unwrap();
    let elsewhere = tmp.join("elsewhere");
    let out = blokus(&["restore".as_ref(), junk.as_os_str(), elsewhere.as_os_str()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("junk.sqlite3"), "{err}");
    assert!(!elsewhere.join("blokus.sqlite3").exists());
    let _ = std::fs::remove_dir_all(&tmp);
}
