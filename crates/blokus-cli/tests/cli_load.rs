//! `blokus load` as a real process: the small fault check that CI runs (20 games, two
//! SIGKILL-and-restart cycles of a real `blokus serve`, a few seconds) and the refusal of
//! targets off this machine.

use std::process::Command;

#[test]
fn fault_check_keeps_every_announced_move_across_two_kills() {
    let out = Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args([
            "load",
            "--fault",
            "--games",
            "20",
            "--cycles",
            "2",
            "--kill-after",
            "1-2",
            "--ai-share",
            "0.5",
            "--ai-level",
            "4",
            "--seconds",
            "50",
            "--json",
        ])
        .output()
        .expect("blokus load runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    let cycles = report["cycles"].as_array().unwrap();
    assert_eq!(cycles.len(), 2, "{stdout}");
    for c in cycles {
        assert_eq!(c["lost"], 0, "{c}");
        assert_eq!(c["unverified"], 0, "{c}");
        assert_eq!(c["ai_went_on"], c["ai_waiting"], "{c}");
        assert!(c["games_checked"].as_u64().unwrap() >= 20, "{c}");
    }
    let load = &report["load"];
    assert!(load["moves_announced"].as_u64().unwrap() > 100, "{load}");
    assert!(
        cycles[1]["moves_checked"].as_u64().unwrap() > 100,
        "{stdout}"
    );
    assert!(load["server"]["max_mib"].as_f64().unwrap() > 1.0, "{load}");
    assert!(
        load["server"]["cpu_seconds"].as_f64().unwrap() > 0.0,
        "{load}"
    );
    assert_eq!(load["ws_failures"], serde_json::json!({}), "{load}");
    assert!(load["latency"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["metric"] == "state_mover" && p["count"].as_u64().unwrap() > 0));
}

#[test]
fn load_refuses_a_server_off_this_machine() {
    let out = Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(["load", "--server", "192.0.2.1:8080", "--seconds", "1"])
        .output()
        .expect("blokus load runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a loopback address"), "{stderr}");
}
