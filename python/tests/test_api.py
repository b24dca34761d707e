"""The Python API against the isu it drives (the wheel's, or $ISU_BIN):
every command, its dataclasses, its failures as exceptions carrying
diagnostics, the run limits and the timeout."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

import isu

ROOT = Path(__file__).resolve().parent.parent.parent
SUM_EVENS = ROOT / "examples" / "sum_evens.isu"


def total_with(expr: str) -> str:
    return (
        "META:\n  AUTO_ID: true\nFUNC:\n  NAME: total\n  ARGS: [xs: int[]]\n  RETURNS: int\n"
        'IO:\n  INPUT: [{"xs": [1, 2]}]\n  OUTPUT: [3]\nSTATE: [t: int = (const 0)]\nLOCAL: [x: int]\n'
        "STEPS:\n  SEQ: BEGIN\n    LOOP:\n      ITER: (each x (var xs))\n      BODY: BEGIN\n"
        f"        ASSIGN:\n          TARGET: t\n          EXPR: {expr}\n      END\n"
        "    RETURN:\n      EXPR: (var t)\n  END\n"
    )


GOOD = total_with("(add (var t) (var x))")
WRONG = total_with("(sub (var t) (var x))")
FIX = "PATCH:\n  REPLACE S1_1:\n    ASSIGN:\n      TARGET: t\n      EXPR: (add (var t) (var x))\n"


def envelope(decision: str, artifact: str) -> str:
    return json.dumps({"decision": decision, "artifact": artifact, "reason": "r"})


def test_the_binary_is_found_and_a_bad_isu_bin_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Path(isu.find_isu()).is_file()
    monkeypatch.setenv("ISU_BIN", "/nonexistent/isu")
    with pytest.raises(FileNotFoundError, match="ISU_BIN is /nonexistent/isu"):
        isu.check(GOOD)
    # A binary that prints no report is a failure that says what it printed.
    monkeypatch.setenv("ISU_BIN", shutil.which("echo") or "/bin/echo")
    with pytest.raises(isu.IsuError, match=r"isu check printed no report \(exit 0\): check - --format json") as e:
        isu.check(GOOD)
    assert e.value.diagnostics == []


def test_check_gives_warnings_and_raises_every_error() -> None:
    assert isu.check(SUM_EVENS) == []
    assert isu.check(SUM_EVENS.read_text()) == []
    with pytest.raises(isu.IsuError) as e:
        isu.check("FUNCTION f\n")
    d = e.value.diagnostics[0]
    assert isinstance(d, isu.Diagnostic)
    assert (d.kind, d.code, d.severity) == ("ParseError", "unexpected_token", "error")
    assert d.span == isu.Span(line=1, column=1, start=0, end=8)
    assert d.extra["expected"] == "a section"
    assert e.value.exit_code != 0
    assert e.value.codes == ["unexpected_token"]
    assert "unexpected_token" in str(e.value)


def test_fmt_gives_the_canonical_text() -> None:
    f = isu.fmt(GOOD)
    assert f.text.startswith("META:\n")
    assert "S1_1: ASSIGN" in f.text
    assert isu.fmt(f.text).canonical


def test_run_gives_the_value_and_names_the_step_of_an_error() -> None:
    assert isu.run(SUM_EVENS, {"xs": [1, 2, 3, 4, 10]}) == 16
    assert isu.run(SUM_EVENS, {"xs": [2]}, target="python") == 2
    with pytest.raises(isu.IsuError) as e:
        isu.run(SUM_EVENS, {"xs": [1, 2]}, limits=isu.Limits(max_steps=1))
    d = e.value.diagnostics[0]
    assert (d.kind, d.code, d.step) == ("RuntimeError", "step_limit", "S1")
    assert {"name": "xs", "value": [1, 2]} in d.vars
    repeat = ROOT / "conformance" / "cases" / "limit_size_repeat.isu"
    assert isu.run(repeat, {"n": 10}, limits=isu.Limits(max_size=10)) == 10
    with pytest.raises(isu.IsuError) as e:
        isu.run(repeat, {"n": 10}, limits=isu.Limits(max_size=9))
    assert (e.value.codes, e.value.diagnostics[0].step) == (["size_limit"], "S1")
    with pytest.raises(isu.IsuError) as e:
        isu.run(SUM_EVENS, {"ys": []})
    assert e.value.diagnostics[0].is_error


def test_a_call_that_takes_too_long_is_stopped() -> None:
    # Arguments of any size go through.
    assert isu.run(SUM_EVENS, {"xs": list(range(200000))}) == sum(range(0, 200000, 2))
    with pytest.raises(isu.IsuTimeout) as e:
        isu.run(SUM_EVENS, {"xs": list(range(200000))}, timeout=0.001)
    assert (e.value.diagnostics, e.value.exit_code) == ([], -1)
    assert "took more than 0.001 s" in str(e.value)


def test_test_reports_the_examples_and_raises_a_test_fail() -> None:
    r = isu.test(SUM_EVENS)
    assert (r.examples, r.passed, r.failed, r.outcome) == (2, 2, 0, "passed")
    with pytest.raises(isu.IsuError) as e:
        isu.test(WRONG)
    assert e.value.diagnostics[0].kind == "TestFail"


def test_patch_and_fix() -> None:
    p = isu.patch(WRONG, FIX)
    assert isu.run(p.text, {"xs": [1, 2]}) == 3
    assert p.renumbered == {}
    with pytest.raises(isu.IsuError) as e:
        isu.patch(WRONG, "PATCH:\n  DELETE S9\n")
    assert e.value.diagnostics[0].is_error
    f = isu.fix(GOOD)
    assert (f.rounds, f.applied, f.left) == (0, [], [])
    assert f.text == isu.fmt(GOOD).text


def test_build_writes_the_artifacts(tmp_path: Path) -> None:
    b = isu.build(SUM_EVENS, "wasm", tmp_path / "out", emit=["wasm", "js"])
    assert b.target == "wasm"
    assert [a.kind for a in b.artifacts] == ["wasm", "js"]
    for a in b.artifacts:
        assert Path(a.path).stat().st_size == a.bytes
    with pytest.raises(isu.IsuError):
        isu.build(SUM_EVENS, "no-such-target", tmp_path / "none")


def test_gen_and_repair_with_replies(tmp_path: Path) -> None:
    g = isu.gen(
        "add up the numbers",
        name="total",
        args="xs: int[]",
        returns="int",
        examples=[({"xs": [1, 2]}, 3), ({"xs": []}, 0)],
        replies=[envelope("submit", WRONG), envelope("patch", FIX)],
        log=tmp_path / "gen.jsonl",
    )
    assert g.status == "passed"
    assert g.program is not None and isu.run(g.program, {"xs": [4, 5]}) == 9
    assert len(g.rounds) == 2
    assert (tmp_path / "gen.jsonl").is_file()
    # The round budget stops it before the patch.
    g = isu.gen(
        "add up the numbers",
        name="total",
        args="xs: int[]",
        returns="int",
        examples=[({"xs": [1, 2]}, 3)],
        replies=[envelope("submit", WRONG), envelope("patch", FIX)],
        budget=isu.Budget(max_rounds=1),
    )
    assert (g.status, len(g.rounds)) == ("round_budget", 1)
    # A run that ends without a passing program is an outcome, not an exception.
    r = isu.repair(WRONG, replies=[envelope("give_up", "")])
    assert (r.status, r.program) == ("gave_up", isu.fmt(WRONG).text)
    assert [e.kind for e in r.errors] == ["TestFail"]
    g = isu.gen("x", name="f", returns="int", replies=["not an envelope"] * 10)
    assert (g.status, g.program) == ("off_contract", None)
    with pytest.raises(isu.IsuError):
        isu.gen("x", name="f", returns="no such type", replies=["r"])
    with pytest.raises(ValueError):
        isu.repair(WRONG)


class _Chat(BaseHTTPRequestHandler):
    """A chat-completion server whose model writes the right `total`."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = json.dumps(
            {
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": envelope("submit", GOOD)},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def model() -> Iterator[isu.Model]:
    server = HTTPServer(("127.0.0.1", 0), _Chat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield isu.Model(url=f"http://127.0.0.1:{server.server_port}/v1", model="m")
    server.shutdown()


def test_eval_and_merged_shards(tmp_path: Path, model: isu.Model) -> None:
    task = {
        "name": "total",
        "words": "add up",
        "args": "xs: int[]",
        "returns": "int",
        "examples": [{"input": {"xs": [1]}, "output": 1}],
    }
    lines = [json.dumps(dict(task, id=f"t{i}", hidden=[{"input": {"xs": [i, 1]}, "output": i + 1}])) for i in range(3)]
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("\n".join(lines) + "\n")
    whole = isu.eval(tasks, model)
    assert [t.id for t in whole.tasks] == ["t0", "t1", "t2"]
    assert whole.pass_at_1 == 1.0 and whole.shard is None
    parts = []
    for i in (1, 2):
        part = isu.eval(tasks, model, shard=(i, 2))
        assert part.shard is not None and part.shard["index"] == i
        path = tmp_path / f"shard-{i}.json"
        path.write_text(json.dumps(part.report))
        parts.append(path)
    merged = isu.eval_merge(parts)
    assert [t.id for t in merged.tasks] == [t.id for t in whole.tasks]
    assert merged.summary["passed"] == whole.summary["passed"] == 3
    with pytest.raises(isu.IsuError) as e:
        isu.eval_merge(parts[:1])
    assert "shard 2/2 missing" in e.value.diagnostics[0].message


def test_memory_adds_and_finds_records(tmp_path: Path) -> None:
    added = isu.memory_add(
        [{"kind": "lesson", "text": "mod of a negative"}, {"kind": "note", "text": "other"}], root=tmp_path
    )
    assert [r.kind for r in added] == ["lesson", "note"]
    found = isu.memory_query(text="NEGATIVE", root=tmp_path)
    assert [r.id for r in found] == [added[0].id]
    assert found[0].record == {"kind": "lesson", "text": "mod of a negative"}
    assert isu.memory_query(kind="note", root=tmp_path, limit=1)[0].id == added[1].id
    with pytest.raises(isu.IsuError) as e:
        isu.memory_query(root=tmp_path, store="ftp://nowhere")
    assert e.value.diagnostics[0].is_error
