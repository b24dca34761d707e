//! A check after a change, as an editor sees it: `isu lsp` running in this
//! process on pipes, a 1,000-line program open, and for each round a
//! `textDocument/didChange` (the whole text, one constant different, every
//! other round with an undeclared variable) until its
//! `textDocument/publishDiagnostics` comes back; beside it, in the same
//! run, the bare front end (`pipeline::check`) of the same texts, the
//! peer the server's time is reported against.
//!
//! Run: `cargo bench -p isu_host --bench lsp_check` (add `-- --quick` for
//! fewer rounds). Prints the median and the slowest round of each side in
//! milliseconds and their ratio; no assertion on time.

use isu_host::functions::Functions;
use isu_host::{lsp, pipeline, Source};
use lsp_server::{Message, Notification};
use serde_json::json;
use std::hint::black_box;
use std::io::{BufReader, Write};
use std::time::{Duration, Instant};

#[path = "common/generated.rs"]
mod generated;

/// The text of round `r`: one constant changed, and every other round a
/// variable misspelt (so the diagnostics and their outline are made too).
fn variant(base: &str, r: usize) -> String {
    let text = base.replacen("(const 1000)", &format!("(const {})", 1000 + r), 1);
    if r % 2 == 1 {
        text.replacen("(var acc)", "(var acx)", 1)
    } else {
        text
    }
}

fn median(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[times.len() / 2], times[times.len() - 1])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn send(w: &mut impl Write, m: Message) {
    m.write(w)
        .unwrap_or_else(|e| panic!("writing to the server: {e}"));
}

fn notify(method: &str, params: serde_json::Value) -> Message {
    Message::Notification(Notification::new(method.to_owned(), params))
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 10 } else { 60 };
    let base = generated::program(|s| s.lines().count() >= 1000);
    let lines = base.lines().count();

    let (server_in, mut to_server) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
    let (from_server, server_out) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
    let server = std::thread::spawn(move || {
        lsp::serve(BufReader::new(server_in), server_out, Functions::default())
    });
    let mut from_server = BufReader::new(from_server);
    let next_diagnostics = |from: &mut BufReader<std::io::PipeReader>| loop {
        match Message::read(from) {
            Ok(Some(Message::Notification(n))) if n.method == "textDocument/publishDiagnostics" => {
                return n.params["diagnostics"].as_array().map_or(0, Vec::len)
            }
            Ok(Some(_)) => {}
            other => panic!("the server stopped: {other:?}"),
        }
    };
    send(
        &mut to_server,
        Message::Request(lsp_server::Request::new(
            1.into(),
            "initialize".to_owned(),
            json!({"capabilities": {}}),
        )),
    );
    let _ = Message::read(&mut from_server);
    send(&mut to_server, notify("initialized", json!({})));
    let uri = "file:///bench/generated.isu";
    send(
        &mut to_server,
        notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "isu", "version": 0, "text": base}}),
        ),
    );
    assert_eq!(next_diagnostics(&mut from_server), 0);

    let texts: Vec<String> = (1..=rounds).map(|r| variant(&base, r)).collect();
    let mut server_times = Vec::new();
    let mut check_times = Vec::new();
    for (r, text) in texts.iter().enumerate() {
        // The peer: the bare front end of the same text.
        let t = Instant::now();
        black_box(pipeline::check(&Source::new(
            "generated.isu",
            text.as_str(),
        )));
        check_times.push(t.elapsed());
        // The server: a change, until its diagnostics arrive.
        let t = Instant::now();
        send(
            &mut to_server,
            notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": r + 1}, "contentChanges": [{"text": text}]}),
            ),
        );
        let n = next_diagnostics(&mut from_server);
        server_times.push(t.elapsed());
        assert_eq!(n > 0, r % 2 == 0, "round {r}: {n} diagnostics");
    }
    send(
        &mut to_server,
        Message::Request(lsp_server::Request::new(
            2.into(),
            "shutdown".to_owned(),
            json!(null),
        )),
    );
    send(&mut to_server, notify("exit", json!(null)));
    drop(to_server);
    let _ = server.join();

    let (server_median, server_max) = median(server_times);
    let (check_median, check_max) = median(check_times);
    println!(
        "a check after a change, {lines}-line program ({} bytes), {rounds} rounds",
        base.len()
    );
    println!("{:<44} {:>10} {:>10}", "", "median ms", "max ms");
    println!(
        "{:<44} {:>10.2} {:>10.2}",
        "isu lsp: didChange to publishDiagnostics",
        ms(server_median),
        ms(server_max)
    );
    println!(
        "{:<44} {:>10.2} {:>10.2}",
        "peer: pipeline::check of the same text",
        ms(check_median),
        ms(check_max)
    );
    println!(
        "ratio server / peer (median): {:.2}",
        server_median.as_secs_f64() / check_median.as_secs_f64()
    );
}
