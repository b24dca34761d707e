//! HTML pages of the repair loop: the page of one run, made from its event
//! log ([`run_page`], `isu replay LOG --html FILE`, and each task's page of
//! `isu eval --logs`), and the page of an evaluation, made from its JSON
//! report ([`eval_page`], `isu eval --html FILE`).
//!
//! A page is one self-contained file: inline style and SVG, no script, no
//! request to anywhere (its Content Security Policy forbids both), readable
//! without JavaScript. Everything that comes from a model, a task or a
//! program is escaped. A page depends only on what it is made from: the
//! same log or report gives the same bytes.
//!
//! `html.rs` holds the escaping and the frame every page shares (with
//! `page.css`), `story.rs` reads a log back into rounds, `run.rs` and
//! `eval.rs` write the two pages, `listing.rs` a program with its errors at
//! their steps and the diff of two programs (`diff.rs`, a line diff), and
//! `svg.rs` the charts.

pub mod diff;
mod eval;
mod html;
mod listing;
mod run;
mod story;
mod svg;

pub use eval::page as eval_page;
pub use run::page as run_page;
