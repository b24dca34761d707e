//! Text in, never a panic: the whole front end (parse, canonicalize, validate,
//! print) on arbitrary UTF-8, and the printer's output parses back.
#![no_main]

use isu_host::{canon, diag, pipeline, Source};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = Source::new("fuzz.isu", text);
    let fe = pipeline::check(&src);
    let _ = diag::render(&fe.diags, Some(&src), false);
    if let Some(program) = fe.program.as_ref().filter(|_| !diag::has_errors(&fe.diags)) {
        let printed = canon::print(program);
        let again = pipeline::parse_canonical(&Source::new("printed", printed.clone()));
        assert!(
            !diag::has_errors(&again.diags),
            "canonical text does not parse:\n{printed}"
        );
        let reprinted = again.program.as_ref().map(canon::print);
        assert_eq!(reprinted.as_deref(), Some(printed.as_str()), "fmt is not a fixed point");
    }
});
