//! Every subcommand that writes to standard output exits quietly (status 0, nothing on
//! standard error) when its reader has gone, as in `blokus variants | head -1`.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

/// Runs `blokus ARGS` with standard output a pipe whose reading end is closed before the
/// program writes, feeding `input` on standard input; returns (success, stderr).
fn run_with_closed_stdout(args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_blokus"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closing our end of the pipe makes every write of the child fail with EPIPE.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // The child may already have stopped reading: a failed write here is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap().success(), stderr)
}

#[test]
fn every_command_exits_quietly_when_stdout_is_closed() {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cli_data/duo.blksgf");
    let commands: &[&[&str]] = &[
        &["variants"],
        &["variants", "--json"],
        &["show", record],
        &[
            "solve",
            "tiling",
            "--size",
            "6x10",
            "--pieces",
            "pentominoes",
        ],
        &["solve", "tetro_8x10", "--strict", "--format", "json"],
        &["match", "greedy", "random", "--games", "1", "--quiet"],
        &["tournament", "greedy", "random", "--rounds", "1", "--quiet"],
        &["bench", "--variant", "duo", "--seconds", "0.05"],
    ];
    for args in commands {
        let (ok, stderr) = run_with_closed_stdout(args, "");
        assert!(ok && stderr.is_empty(), "blokus {args:?}: {stderr}");
    }
    let (ok, stderr) = run_with_closed_stdout(&["gtp", "--quiet"], "name\nversion\nquit\n");
    assert!(ok && stderr.is_empty(), "blokus gtp: {stderr}");
}
