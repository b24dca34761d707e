#!/usr/bin/env python3
"""Third-party checks of Isu's exported grammars and JSON Schemas.

Run by host/tests/grammar_agreement.rs, which writes a folder with the
grammars, the texts and the JSON documents, and a plan.json naming them:

    {"grammars": {"program": {"lark": F, "gbnf": F, "regex": F}, "patch": {...}},
     "texts": [{"name": N, "file": F, "start": "program" | "patch"}],
     "schemas": {"iir": F, ...},
     "documents": [{"file": F, "schema": "iir"}]}

It prints one JSON object: for each text, whether each implementation accepts
it (Python lark's Earley parser; llguidance on the Lark grammar, on the GBNF
through llguidance's own GBNF-to-Lark conversion, and on the regex), and for
each document, the errors of Python jsonschema (Draft 2020-12). Requires
lark==1.3.1, llguidance==1.9.1 and jsonschema (.ci/run installs them).
"""

import json
import sys
import time
from pathlib import Path

try:
    import jsonschema
    import lark
    import llguidance
except ImportError as e:  # pragma: no cover - reported to the Rust test
    print(json.dumps({"missing": str(e)}))
    sys.exit(3)


class ByteTokenizer:
    """A tokenizer with one token per byte, and an end-of-sequence token."""

    eos_token_id = 256
    bos_token_id = None
    tokens = [bytes([i]) for i in range(256)] + [b"<eos>"]
    special_token_ids = [256]

    def __call__(self, text):
        if isinstance(text, str):
            text = text.encode("utf-8")
        return list(text)


TOKENIZER = llguidance.LLTokenizer(llguidance.TokenizerWrapper(ByteTokenizer()))


class Matcher:
    """Whether llguidance's grammar accepts a whole text, byte by byte."""

    def __init__(self, grammar):
        self.grammar = grammar
        probe = llguidance.LLMatcher(TOKENIZER, grammar, log_level=0)
        if probe.is_error():
            raise SystemExit(f"llguidance refuses the grammar: {probe.get_error()}")

    def accepts(self, text):
        m = llguidance.LLMatcher(TOKENIZER, self.grammar, log_level=0)
        tokens = list(text.encode("utf-8"))
        if m.try_consume_tokens(tokens) != len(tokens):
            return False
        return m.is_accepting()


def lark_accepts(parser, text):
    try:
        parser.parse(text)
        return True
    except lark.exceptions.LarkError:
        return False


def main():
    began = time.monotonic()
    root = Path(sys.argv[1])
    plan = json.loads((root / "plan.json").read_text())
    checkers = {}
    for start, files in plan["grammars"].items():
        lark_text = (root / files["lark"]).read_text()
        gbnf_text = (root / files["gbnf"]).read_text()
        regex_text = (root / files["regex"]).read_text().rstrip("\n")
        checkers[start] = {
            "lark": lark.Lark(lark_text, parser="earley"),
            "llguidance_lark": Matcher(llguidance.grammar_from("lark", lark_text)),
            "llguidance_gbnf": Matcher(llguidance.grammar_from("gbnf", gbnf_text)),
            "llguidance_regex": Matcher(llguidance.grammar_from("regex", regex_text)),
        }
    print(f"grammars compiled in {time.monotonic() - began:.1f}s", file=sys.stderr)
    texts = {}
    for t in plan["texts"]:
        text = (root / t["file"]).read_text(encoding="utf-8")
        c = checkers[t["start"]]
        texts[t["name"]] = {
            "lark": lark_accepts(c["lark"], text),
            "llguidance_lark": c["llguidance_lark"].accepts(text),
            "llguidance_gbnf": c["llguidance_gbnf"].accepts(text),
            "llguidance_regex": c["llguidance_regex"].accepts(text),
        }
    print(f"texts checked in {time.monotonic() - began:.1f}s", file=sys.stderr)
    validators = {}
    for name, file in plan.get("schemas", {}).items():
        schema = json.loads((root / file).read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[name] = jsonschema.Draft202012Validator(schema)
    documents = {}
    for d in plan.get("documents", []):
        doc = json.loads((root / d["file"]).read_text())
        errors = [
            f"{e.message} at {'/'.join(map(str, e.absolute_path))}"
            for e in validators[d["schema"]].iter_errors(doc)
        ]
        documents[d["file"]] = errors
    print(f"documents checked in {time.monotonic() - began:.1f}s", file=sys.stderr)
    print(json.dumps({"texts": texts, "documents": documents}))


if __name__ == "__main__":
    main()
