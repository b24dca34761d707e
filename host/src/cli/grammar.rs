//! `isu grammar` and `isu schema`: the grammar of canonical Isu and the JSON
//! Schemas of what the toolchain reads and writes, for constrained decoding
//! and for tools.

use super::run::registry;
use crate::grammar::{self, Start, Vocabulary};
use crate::schema;
use anyhow::Result;
use clap::ValueEnum;
use std::io::Write;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GrammarFormat {
    /// ISO 14977 EBNF, for people (spec/isu.ebnf).
    Ebnf,
    /// llama.cpp's GBNF (`--grammar-file`, the server's `grammar`).
    Gbnf,
    /// Lark, as Python's lark, llguidance and Outlines read it.
    Lark,
    /// One regular expression, a superset of the grammar.
    RegexLite,
    /// A TextMate grammar (JSON) for editors' highlighting: the standard
    /// vocabulary, pack functions by their form (`--start` does not apply).
    Textmate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GrammarStart {
    /// A whole program.
    Program,
    /// A patch file (PATCH: ...).
    Patch,
    /// Either.
    Any,
}

#[derive(Debug, clap::Args)]
pub struct GrammarArgs {
    /// The grammar format.
    #[arg(long, value_enum)]
    pub format: GrammarFormat,
    /// What the grammar derives.
    #[arg(long, value_enum, default_value_t = GrammarStart::Program)]
    pub start: GrammarStart,
}

#[derive(Debug, clap::Args)]
pub struct SchemaArgs {
    /// Which schema.
    #[arg(value_enum)]
    pub which: schema::Which,
    /// For `envelope`: the decisions a reply may take (default: all).
    #[arg(long, value_delimiter = ',', value_name = "DECISION,...")]
    pub allow: Vec<crate::llm::Decision>,
}

/// Prints the grammar, with the functions of the manifest's packs.
pub fn grammar(args: &GrammarArgs, manifest: Option<&Path>) -> Result<i32> {
    let format = match args.format {
        GrammarFormat::Ebnf => grammar::Format::Ebnf,
        GrammarFormat::Gbnf => grammar::Format::Gbnf,
        GrammarFormat::Lark => grammar::Format::Lark,
        GrammarFormat::RegexLite => grammar::Format::RegexLite,
        GrammarFormat::Textmate => {
            write_stdout(&grammar::textmate::print())?;
            return Ok(0);
        }
    };
    let reg = registry(manifest, false);
    let vocab = Vocabulary::with_packs(&reg.functions);
    let start = match args.start {
        GrammarStart::Program => Start::Program,
        GrammarStart::Patch => Start::Patch,
        GrammarStart::Any => Start::Any,
    };
    let text = grammar::print(&grammar::grammar(&vocab, start), format);
    write_stdout(&text)?;
    Ok(0)
}

/// Prints a JSON Schema (2020-12), pretty, with a final line break.
pub fn schema(args: &SchemaArgs) -> Result<i32> {
    let value = schema::schema(args.which, &args.allow);
    write_stdout(&schema::pretty(&value))?;
    Ok(0)
}

fn write_stdout(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
