//! A GTP client: spawns an engine process and exchanges commands with it.
//!
//! Commands go to the engine's standard input one per line; a response starts with `=`
//! (success) or `?` (failure) and ends with an empty line (GTP 2).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// How long an engine may take to answer one command before it is given up on.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// What went wrong talking to an engine.
#[derive(Debug)]
pub enum GtpError {
    /// The command line is empty.
    EmptyCommand,
    /// The command line has an unterminated quote or a trailing backslash.
    BadCommandLine(String),
    /// The engine could not be started.
    Spawn {
        /// The command line.
        command: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Reading from or writing to the engine failed, or it exited.
    Io(String),
    /// The engine answered `? message`.
    Failure {
        /// The command sent.
        command: String,
        /// The engine's message.
        message: String,
    },
}

impl std::fmt::Display for GtpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GtpError::EmptyCommand => write!(f, "empty engine command line"),
            GtpError::BadCommandLine(m) => write!(f, "malformed engine command line {m}"),
            GtpError::Spawn { command, source } => {
                write!(f, "cannot start engine '{command}': {source}")
            }
            GtpError::Io(m) => write!(f, "{m}"),
            GtpError::Failure { command, message } => {
                write!(f, "engine refused '{command}': {message}")
            }
        }
    }
}

impl std::error::Error for GtpError {}

/// Splits a command line into words as a POSIX shell would (quotes group; inside single
/// quotes a backslash is literal), without running a shell.
///
/// # Errors
/// [`GtpError::BadCommandLine`] for an unterminated quote or a trailing backslash.
pub fn split_command_line(line: &str) -> Result<Vec<String>, GtpError> {
    shell_words::split(line).map_err(|e| GtpError::BadCommandLine(format!("{line}: {e}")))
}

/// A running GTP engine.
pub struct GtpClient {
    command: String,
    child: Child,
    stdin: ChildStdin,
    /// Lines of the engine's output, read by a thread so a silent engine cannot block
    /// the caller past the timeout.
    lines: Receiver<std::io::Result<String>>,
    timeout: Duration,
}

impl GtpClient {
    /// Starts an engine from a command line such as `blokus gtp --level 3`. Its
    /// standard error is passed through.
    ///
    /// # Errors
    /// [`GtpError::Spawn`] if the program cannot be started.
    pub fn spawn(command_line: &str) -> Result<GtpClient, GtpError> {
        let words = split_command_line(command_line)?;
        let (prog, args) = words.split_first().ok_or(GtpError::EmptyCommand)?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| GtpError::Spawn {
                command: command_line.to_string(),
                source,
            })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (tx, lines) = mpsc::channel();
        // The thread ends when the engine closes its output (it exits or is killed).
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(GtpClient {
            command: command_line.to_string(),
            child,
            stdin,
            lines,
            timeout: DEFAULT_TIMEOUT,
        })
    }

    /// Sets how long one command may take.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The command line the engine was started with.
    pub fn command_line(&self) -> &str {
        &self.command
    }

    /// Sends one command and returns the response text (without the `= `).
    ///
    /// # Errors
    /// [`GtpError::Failure`] for a `?` response, [`GtpError::Io`] if the engine is gone
    /// or answers something that is not GTP.
    pub fn send(&mut self, command: &str) -> Result<String, GtpError> {
        let io = |e: std::io::Error| {
            GtpError::Io(format!("engine '{}': {e} (on '{command}')", self.command))
        };
        writeln!(self.stdin, "{command}").map_err(io)?;
        self.stdin.flush().map_err(io)?;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let line = match self.lines.recv_timeout(self.timeout) {
                Ok(line) => line.map_err(io)?,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(GtpError::Io(format!(
                        "engine '{}' did not answer '{command}' within {} s",
                        self.command,
                        self.timeout.as_secs_f64()
                    )))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(GtpError::Io(format!(
                        "engine '{}' closed its output (on '{command}')",
                        self.command
                    )))
                }
            };
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() {
                if lines.is_empty() {
                    // Blank lines before a response are noise.
                    continue;
                }
                break;
            }
            lines.push(line.to_string());
        }
        let first = lines[0].clone();
        let (status, rest) = first.split_at(1);
        // Skip an optional numeric id after the status character.
        let rest = rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start();
        let mut body = rest.to_string();
        for l in &lines[1..] {
            body.push('\n');
            body.push_str(l);
        }
        match status {
            "=" => Ok(body),
            "?" => Err(GtpError::Failure {
                command: command.to_string(),
                message: body,
            }),
            _ => Err(GtpError::Io(format!(
                "engine '{}' answered '{first}', not GTP (on '{command}')",
                self.command
            ))),
        }
    }

    /// Sends `quit` and waits for the process to exit.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        // A client dropped without `quit` (an error path) must not leave a process.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line(r#"blokus gtp  --game "Blokus Duo" --x 'a b' c\ d 'e\nf'"#).unwrap(),
            vec![
                "blokus",
                "gtp",
                "--game",
                "Blokus Duo",
                "--x",
                "a b",
                "c d",
                "e\\nf"
            ]
        );
        assert!(split_command_line("   ").unwrap().is_empty());
        assert!(split_command_line("engine 'unterminated").is_err());
        assert!(GtpClient::spawn("   ").is_err());
    }

    #[test]
    fn a_missing_program_is_a_clear_error() {
        let e = GtpClient::spawn("/nonexistent/engine --flag")
            .err()
            .unwrap();
        assert!(e.to_string().contains("cannot start engine"), "{e}");
    }

    #[test]
    fn talks_to_a_shell_engine() {
        // `cat`-like echo engine: answers every command with "= <command>".
        let script = r#"sh -c 'while read l; do [ "$l" = quit ] && { printf "=\n\n"; exit; }; printf "= %s\n\n" "$l"; done'"#;
        let mut c = GtpClient::spawn(script).unwrap();
        assert_eq!(c.send("name").unwrap(), "name");
        c.quit();
    }

    #[test]
    fn a_silent_engine_times_out() {
        let mut c = GtpClient::spawn("sleep 30").unwrap();
        c.set_timeout(Duration::from_millis(200));
        let e = c.send("name").err().unwrap();
        assert!(e.to_string().contains("did not answer"), "{e}");
        // Dropping the client kills the process.
    }
}
