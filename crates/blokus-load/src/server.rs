//! The server under test as a child process: `blokus serve` on 127.0.0.1 with a data
//! folder of its own, started, killed with SIGKILL and restarted on the same port.

use std::fs::File;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::LoadError;

/// How long a starting server may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A `blokus serve` child process.
pub struct ServerProcess {
    program: PathBuf,
    data: PathBuf,
    addr: SocketAddr,
    child: Child,
}

impl ServerProcess {
    /// Starts `PROGRAM serve --host 127.0.0.1 --port P --data DATA` on a free port and
    /// waits until it accepts connections. Its output goes to `DATA/../server.log`.
    ///
    /// # Errors
    /// If it cannot be started or does not listen within 30 s.
    pub fn start(program: &Path, data: &Path) -> Result<ServerProcess, LoadError> {
        // The port must stay the same across restarts, so it is chosen here.
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|l| l.local_addr())
            .map_err(|e| LoadError::Server(format!("no free port: {e}")))?
            .port();
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let child = spawn(program, data, port)?;
        let mut s = ServerProcess {
            program: program.to_path_buf(),
            data: data.to_path_buf(),
            addr,
            child,
        };
        s.wait_listening()?;
        Ok(s)
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL: no chance to flush or clean up. Waits until the process is gone.
    pub fn kill9(&mut self) -> Result<(), LoadError> {
        // std's Child::kill sends SIGKILL on Unix.
        self.child
            .kill()
            .and_then(|()| self.child.wait().map(drop))
            .map_err(|e| LoadError::Server(format!("cannot kill the server: {e}")))
    }

    /// Starts it again on the same port and data folder (after [`Self::kill9`]).
    pub fn restart(&mut self) -> Result<(), LoadError> {
        self.child = spawn(&self.program, &self.data, self.addr.port())?;
        self.wait_listening()
    }

    fn wait_listening(&mut self) -> Result<(), LoadError> {
        let t0 = Instant::now();
        while t0.elapsed() < START_TIMEOUT {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(LoadError::Server(format!(
                    "the server exited at start ({status}); see {}",
                    log_path(&self.data).display()
                )));
            }
            if TcpStream::connect_timeout(&self.addr, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(LoadError::Server(format!(
            "the server did not listen on {} within {START_TIMEOUT:?}",
            self.addr
        )))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn log_path(data: &Path) -> PathBuf {
    data.with_file_name("server.log")
}

fn spawn(program: &Path, data: &Path, port: u16) -> Result<Child, LoadError> {
    let log = File::options()
        .create(true)
        .append(true)
        .open(log_path(data))
        .map_err(|e| LoadError::Server(format!("cannot write the server log: {e}")))?;
    let log2 = log
        .try_clone()
        .map_err(|e| LoadError::Server(e.to_string()))?;
    Command::new(program)
        .args([
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            &port.to_string(),
            "--data",
        ])
        .arg(data)
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log2)
        .spawn()
        .map_err(|e| LoadError::Server(format!("cannot start {}: {e}", program.display())))
}

/// The resident set size of a process in MiB, from `/proc/PID/status` (`None` if it is
/// gone or the system has no `/proc`).
pub fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_vm_rss(&status)
}

/// CPU time (user + system) a process has used, in seconds, from `/proc/PID/stat`.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_cpu_seconds(&stat)
}

/// Clock ticks per second of `/proc/PID/stat` times: 100 on Linux (USER_HZ).
const TICKS_PER_SECOND: f64 = 100.0;

fn parse_cpu_seconds(stat: &str) -> Option<f64> {
    // After the command name (in parentheses, may hold spaces) come the fields from
    // `state` (field 3) on; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / TICKS_PER_SECOND)
}

fn parse_vm_rss(status: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vm_rss() {
        let status = "Name:\tblokus\nVmPeak:\t  999 kB\nVmRSS:\t   20480 kB\nThreads:\t4\n";
        assert_eq!(parse_vm_rss(status), Some(20.0));
        assert_eq!(parse_vm_rss("Name: x\n"), None);
        assert!(rss_mib(std::process::id()).is_some_and(|m| m > 0.0));
    }

    #[test]
    fn reads_cpu_time() {
        let stat = "42 (blokus serve) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 4 0";
        assert_eq!(parse_cpu_seconds(stat), Some(3.0));
        assert_eq!(parse_cpu_seconds("garbage"), None);
        assert!(cpu_seconds(std::process::id()).is_some());
    }
}
