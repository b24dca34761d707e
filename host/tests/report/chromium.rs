//! Headless Chromium for tests, driven through the DevTools protocol: a
//! minimal WebSocket client (RFC 6455: the handshake, masked text frames
//! out, fragmented frames in, ping and close) over a loopback TCP
//! connection to the browser's debugging port.
//!
//! [`Browser::render`] opens a page in a new tab, waits for its load event,
//! and returns what the page's console said (messages, uncaught exceptions,
//! and the browser's own log entries, such as a script refused by the
//! page's Content Security Policy), the value of a probe expression
//! evaluated in the page, and a screenshot of the whole page.
#![allow(dead_code)]

use base64::Engine;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long the browser may take to start, and a page to load.
const PATIENCE: Duration = Duration::from_secs(60);

/// The browser on `PATH` (Debian's `chromium`), if any.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
}

/// Whether the browser tests must run (CI sets it; `.ci/run` installs
/// Chromium).
pub fn required() -> bool {
    std::env::var_os("ISU_REQUIRE_CHROMIUM").is_some_and(|v| v == "1")
}

/// A running browser, ended when dropped.
pub struct Browser {
    child: Child,
    ws: Socket,
    next: u64,
    /// Messages read while waiting for something else.
    pending: VecDeque<Value>,
    profile: PathBuf,
}

/// What a page did when it was opened.
#[derive(Debug)]
pub struct Rendered {
    /// Every console message, uncaught exception and log entry, as
    /// `LEVEL: text`.
    pub console: Vec<String>,
    /// The probe's value.
    pub probe: Value,
}

impl Browser {
    /// Starts `bin` headless with a new profile in `profile` (a folder of
    /// its own), and connects to it.
    pub fn start(bin: &Path, profile: &Path) -> Result<Browser, String> {
        let _ = std::fs::remove_dir_all(profile);
        std::fs::create_dir_all(profile).map_err(|e| e.to_string())?;
        let log = std::fs::File::create(profile.join("stderr.txt")).map_err(|e| e.to_string())?;
        let child = Command::new(bin)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--window-size=1200,900",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("starting {}: {e}", bin.display()))?;
        let mut browser = Browser {
            child,
            ws: Socket::closed(),
            next: 0,
            pending: VecDeque::new(),
            profile: profile.to_owned(),
        };
        let (port, path) = browser.debugging_port()?;
        browser.ws = Socket::connect(port, &path)?;
        Ok(browser)
    }

    /// The port and path the browser writes to `DevToolsActivePort` in its
    /// profile once it listens.
    fn debugging_port(&mut self) -> Result<(u16, String), String> {
        let file = self.profile.join("DevToolsActivePort");
        let start = Instant::now();
        loop {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            let mut lines = text.lines();
            if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                if let Ok(port) = port.trim().parse() {
                    return Ok((port, path.trim().to_owned()));
                }
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "the browser ended ({status}) before it listened: {}",
                    self.stderr()
                ));
            }
            if start.elapsed() > PATIENCE {
                return Err(format!(
                    "the browser did not listen within {PATIENCE:?}: {}",
                    self.stderr()
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.profile.join("stderr.txt")).unwrap_or_default()
    }

    /// Sends a command (to a page's session when `session` is given) and
    /// returns its result, keeping the events that come before it.
    fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws.send(&msg.to_string())?;
        let start = Instant::now();
        loop {
            let v = self.receive(start)?;
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    return Err(format!("{method}: {e}"));
                }
                return Ok(v["result"].clone());
            }
            self.pending.push_back(v);
        }
    }

    fn receive(&mut self, start: Instant) -> Result<Value, String> {
        if start.elapsed() > PATIENCE {
            return Err(format!("no answer within {PATIENCE:?}"));
        }
        let text = self.ws.receive()?;
        serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))
    }

    /// Opens `url` in a new tab, waits for it to load, evaluates `probe`
    /// (an expression whose value is JSON) in it, and writes a screenshot
    /// of the whole page to `screenshot` (PNG).
    pub fn render(
        &mut self,
        url: &str,
        probe: &str,
        screenshot: &Path,
    ) -> Result<Rendered, String> {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}))?;
        let target = target["targetId"].as_str().unwrap_or("").to_owned();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        )?;
        let session = attached["sessionId"].as_str().unwrap_or("").to_owned();
        let s = Some(session.as_str());
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            self.call(s, domain, json!({}))?;
        }
        self.pending.clear();
        let nav = self.call(s, "Page.navigate", json!({"url": url}))?;
        if let Some(e) = nav.get("errorText") {
            return Err(format!("navigating to {url}: {e}"));
        }
        let mut console = Vec::new();
        let start = Instant::now();
        loop {
            let v = match self.pending.pop_front() {
                Some(v) => v,
                None => self.receive(start)?,
            };
            if v["sessionId"] != json!(session) {
                continue;
            }
            if let Some(line) = said(&v) {
                console.push(line);
            }
            if v["method"] == "Page.loadEventFired" {
                break;
            }
        }
        let probe = self.call(
            s,
            "Runtime.evaluate",
            json!({"expression": probe, "returnByValue": true}),
        )?;
        if let Some(e) = probe.get("exceptionDetails") {
            return Err(format!("the probe failed: {e}"));
        }
        let probe = probe["result"]["value"].clone();
        let metrics = self.call(s, "Page.getLayoutMetrics", json!({}))?;
        let size = &metrics["cssContentSize"];
        let shot = self.call(
            s,
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "captureBeyondViewport": true,
                "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
            }),
        )?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or(""))
            .map_err(|e| e.to_string())?;
        std::fs::write(screenshot, png).map_err(|e| e.to_string())?;
        // Anything the page said while it was probed and shot.
        for v in std::mem::take(&mut self.pending) {
            if v["sessionId"] == json!(session) {
                console.extend(said(&v));
            }
        }
        self.call(None, "Target.closeTarget", json!({"targetId": target}))?;
        Ok(Rendered { console, probe })
    }
}

/// A console message, an uncaught exception or a log entry, as one line.
fn said(v: &Value) -> Option<String> {
    let p = &v["params"];
    match v["method"].as_str()? {
        "Runtime.consoleAPICalled" => {
            let args: Vec<String> = p["args"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|x| {
                            x["value"]
                                .as_str()
                                .map_or_else(|| x.to_string(), str::to_owned)
                        })
                        .collect()
                })
                .unwrap_or_default();
            Some(format!(
                "{}: {}",
                p["type"].as_str().unwrap_or("log"),
                args.join(" ")
            ))
        }
        "Runtime.exceptionThrown" => Some(format!("exception: {}", p["exceptionDetails"])),
        "Log.entryAdded" => Some(format!(
            "{}: {} ({})",
            p["entry"]["level"].as_str().unwrap_or("log"),
            p["entry"]["text"].as_str().unwrap_or(""),
            p["entry"]["source"].as_str().unwrap_or("")
        )),
        _ => None,
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A WebSocket client connection (text messages only).
struct Socket {
    reader: Option<BufReader<TcpStream>>,
}

impl Socket {
    fn closed() -> Socket {
        Socket { reader: None }
    }

    fn connect(port: u16, path: &str) -> Result<Socket, String> {
        let stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(PATIENCE))
            .map_err(|e| e.to_string())?;
        let mut w = stream.try_clone().map_err(|e| e.to_string())?;
        write!(
            w,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: aXN1LXRlc3Qtbm9uY2UhIQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .map_err(|e| e.to_string())?;
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).map_err(|e| e.to_string())?;
        if !status.starts_with("HTTP/1.1 101") {
            return Err(format!("the browser refused the WebSocket: {status}"));
        }
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).map_err(|e| e.to_string())?;
            if header == "\r\n" || header.is_empty() {
                break;
            }
        }
        Ok(Socket {
            reader: Some(reader),
        })
    }

    fn stream(&mut self) -> Result<&mut BufReader<TcpStream>, String> {
        self.reader
            .as_mut()
            .ok_or_else(|| "not connected".to_owned())
    }

    /// Sends a frame: FIN, `opcode`, masked (as a client must).
    fn frame(&mut self, opcode: u8, payload: &[u8]) -> Result<(), String> {
        let mut f = vec![0x80 | opcode];
        let n = payload.len();
        if n < 126 {
            f.push(0x80 | n as u8);
        } else if n <= 0xffff {
            f.push(0x80 | 126);
            f.extend((n as u16).to_be_bytes());
        } else {
            f.push(0x80 | 127);
            f.extend((n as u64).to_be_bytes());
        }
        let mask = [0x5a, 0x17, 0xc3, 0x81];
        f.extend(mask);
        f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        let s = self.stream()?.get_mut();
        s.write_all(&f)
            .and_then(|()| s.flush())
            .map_err(|e| e.to_string())
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        self.frame(0x1, text.as_bytes())
    }

    /// The next text message, its fragments joined; pings are answered.
    fn receive(&mut self) -> Result<String, String> {
        let mut message = Vec::new();
        loop {
            let r = self.stream()?;
            let mut head = [0u8; 2];
            r.read_exact(&mut head).map_err(|e| e.to_string())?;
            let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
            let masked = head[1] & 0x80 != 0;
            let mut n = u64::from(head[1] & 0x7f);
            if n == 126 {
                let mut b = [0u8; 2];
                r.read_exact(&mut b).map_err(|e| e.to_string())?;
                n = u64::from(u16::from_be_bytes(b));
            } else if n == 127 {
                let mut b = [0u8; 8];
                r.read_exact(&mut b).map_err(|e| e.to_string())?;
                n = u64::from_be_bytes(b);
            }
            let mut mask = [0u8; 4];
            if masked {
                r.read_exact(&mut mask).map_err(|e| e.to_string())?;
            }
            let mut payload = vec![0u8; usize::try_from(n).map_err(|e| e.to_string())?];
            r.read_exact(&mut payload).map_err(|e| e.to_string())?;
            if masked {
                for (i, b) in payload.iter_mut().enumerate() {
                    *b ^= mask[i % 4];
                }
            }
            match opcode {
                0x0 | 0x1 => {
                    message.extend(payload);
                    if fin {
                        return String::from_utf8(message).map_err(|e| e.to_string());
                    }
                }
                0x8 => return Err("the browser closed the connection".into()),
                0x9 => self.frame(0xA, &payload)?,
                _ => {}
            }
        }
    }
}
