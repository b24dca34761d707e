"""`isu lsp` driven by a real LSP client (pytest-lsp, on pygls's client).

Run by host/tests/lsp.rs, which passes the binary as ISU_BIN:
    ISU_BIN=target/debug/isu python3 -m pytest host/tests/clients/lsp -p no:cacheprovider
"""

import os
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ISU = os.environ.get("ISU_BIN", "isu")

# sum_evens with a misspelt variable (`totl`: undeclared_variable, whose fix
# renames it), written loosely: braces for blocks, other indentation.
BROKEN = """META:
  AUTO_ID: true
FUNC:
  NAME: sum_evens
  ARGS: [xs: int[]]
  RETURNS: int
IO:
  INPUT: [{"xs": [1, 2, 3, 4]}, {"xs": []}]
  OUTPUT: [6, 0]
STATE: [total: int = (const 0)]
LOCAL: [x: int]
STEPS:
  SEQ: BEGIN
      S1: LOOP "add up the even elements"
        ITER: (each x (var xs))
        BODY: {
          S1_1: IF
            COND: (eq (mod (var x) (const 2)) (const 0))
            THEN: {
              S1_1_1: ASSIGN
                TARGET: total
                EXPR: (add (var totl) (var x))
            }
            ELSE: { }
        }
      S2: RETURN
        EXPR: (call ABS (var total))
  END
"""

# A valid program whose second example does not hold.
FAILING = """FUNC:
  NAME: double
  ARGS: [n: int]
  RETURNS: int
IO:
  INPUT: [{"n": 2}, {"n": 3}]
  OUTPUT: [4, 7]
STEPS:
  SEQ: BEGIN
    S1: RETURN
      EXPR: (mul (var n) (const 2))
  END
"""

URI = "file:///isu-lsp-test/sum_evens.isu"


def isu(*args, stdin=None):
    """Runs the isu binary; its stdout."""
    done = subprocess.run([ISU, *args], input=stdin, capture_output=True, text=True)
    return done.stdout


def canonical(text):
    return isu("fmt", "-", stdin=text)


def fixed(text):
    return isu("fix", "-", stdin=text)


def position_of(text, needle, offset=0):
    """The position of `needle` in `text` (ASCII before it), plus `offset`."""
    at = text.index(needle) + offset
    line = text.count("\n", 0, at)
    column = at - (text.rfind("\n", 0, at) + 1)
    return types.Position(line=line, character=column)


def apply(text, edits):
    """`text` with LSP text edits applied (positions in ASCII text)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(p):
        if p.line >= len(lines):
            return len(text)
        return starts[p.line] + min(p.character, len(lines[p.line]))

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[ISU, "lsp", "--stdio"]))
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    result = await lsp_client.initialize_session(params)
    assert result.server_info.name == "isu"
    yield
    await lsp_client.shutdown_session()


async def open_doc(client, text, uri=URI, language="isu"):
    """Opens a document; its first diagnostics."""
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics.get(uri, [])


def doc(uri=URI):
    return types.TextDocumentIdentifier(uri=uri)


@pytest.mark.asyncio
async def test_the_session(client: LanguageClient):
    """Diagnostics with codes, a code action, hover on a function, formatting
    to the canonical text, step symbols, -32601 for an unknown method, and
    (in the fixture) a clean shutdown."""
    diags = await open_doc(client, BROKEN)
    codes = [d.code for d in diags]
    assert "undeclared_variable" in codes, codes
    bad = next(d for d in diags if d.code == "undeclared_variable")
    assert bad.range.start == position_of(BROKEN, "(var totl)")
    assert bad.source == "isu"
    assert "step: S1_1_1" in bad.message
    assert bad.related_information and "total is declared here" in bad.related_information[0].message
    assert bad.data["step"] == "S1_1_1"

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(),
            range=bad.range,
            context=types.CodeActionContext(diagnostics=[bad]),
        )
    )
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert quick, actions
    renamed = apply(BROKEN, quick[0].edit.changes[URI])
    assert "(var total) (var x)" in renamed
    assert quick[0].diagnostics[0].code == "undeclared_variable"

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(), position=position_of(BROKEN, "ABS", 1))
    )
    assert "ABS(int) -> int" in hover.contents.value
    assert "absolute value" in hover.contents.value
    assert "int_overflow" in hover.contents.value

    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(), options=types.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    want = canonical(BROKEN)
    assert want and want != BROKEN
    assert apply(BROKEN, edits) == want

    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc())
    )
    tree = [(s.name, s.detail, [(c.name, [g.name for g in c.children or []]) for c in s.children or []]) for s in symbols]
    assert tree == [
        ("S1", 'LOOP "add up the even elements"', [("S1_1", ["S1_1_1"])]),
        ("S2", "RETURN", []),
    ], tree

    with pytest.raises(JsonRpcException) as unknown:
        await client.protocol.send_request_async("isu/noSuchMethod", {})
    assert unknown.value.code == -32601


@pytest.mark.asyncio
async def test_diagnostics_follow_changes(client: LanguageClient):
    await open_doc(client, BROKEN)
    start = position_of(BROKEN, "totl")
    end = types.Position(line=start.line, character=start.character + 4)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text="total")
            ],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []
    # A whole new text: a parse error, with the step it is in.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=3),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=BROKEN.replace("(const 2)", "(const 2"))],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    diags = client.diagnostics[URI]
    assert diags and all(d.severity == types.DiagnosticSeverity.Error for d in diags)
    assert any("step: S1_1" in d.message for d in diags), diags


@pytest.mark.asyncio
async def test_fixes_and_fix_all(client: LanguageClient):
    text = BROKEN.replace("LOOP", "loop", 1).replace("(var totl)", "(var total)")
    diags = await open_doc(client, text)
    assert [d.code for d in diags] == ["misspelt_keyword"]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(),
            range=diags[0].range,
            context=types.CodeActionContext(diagnostics=diags),
        )
    )
    kinds = [a.kind for a in actions]
    assert kinds == [types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll], kinds
    assert actions[0].is_preferred
    assert apply(text, actions[0].edit.changes[URI]) == BROKEN.replace("(var totl)", "(var total)")
    assert apply(text, actions[1].edit.changes[URI]) == fixed(text)
    # Only what is asked for.
    only = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(),
            range=diags[0].range,
            context=types.CodeActionContext(diagnostics=diags, only=[types.CodeActionKind.Source]),
        )
    )
    assert [a.kind for a in only] == [types.CodeActionKind.SourceFixAll]


@pytest.mark.asyncio
async def test_formatting_a_text_that_does_not_parse_gives_no_edit(client: LanguageClient):
    text = BROKEN.replace("(const 2)", "(const 2")
    diags = await open_doc(client, text)
    assert diags
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(), options=types.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert edits is None
    # Canonical text gets no edit either.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=canonical(BROKEN))],
        )
    )
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=doc(), options=types.FormattingOptions(tab_size=2, insert_spaces=True)
        )
    )
    assert edits is not None and list(edits) == []


@pytest.mark.asyncio
async def test_hover_on_variables_steps_and_keywords(client: LanguageClient):
    await open_doc(client, BROKEN)

    async def hover(needle, offset=0):
        h = await client.text_document_hover_async(
            types.HoverParams(text_document=doc(), position=position_of(BROKEN, needle, offset))
        )
        return h.contents.value if h else None

    total = await hover("TARGET: total", 9)
    assert "total: int" in total and "STATE variable" in total and "line 10" in total
    assert "argument" in await hover("(var xs)", 6)
    step = await hover("S1_1: IF")
    assert "S1_1: IF" in step and "Step S1_1 (IF: COND, THEN, ELSE)." in step
    assert "a field of IF" in await hover("COND")
    assert await hover("[1, 2", 1) is None


@pytest.mark.asyncio
async def test_hover_counts_utf16(client: LanguageClient):
    """Positions count UTF-16 code units (the client offers no other
    encoding): after two emoji (two units each, four bytes each) on a line,
    the last letter of TO_STRING is found only by counting them so."""
    text = BROKEN.replace(
        "EXPR: (call ABS (var total))",
        'EXPR: (call LEN (call CONCAT (const "😀😀") (call TO_STRING (var total))))',
    ).replace("RETURNS: int", "RETURNS: int")
    await open_doc(client, text)
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "TO_STRING" in l)
    before = lines[line][: lines[line].index("TO_STRING") + len("TO_STRING") - 1]
    col = len(before.encode("utf-16-le")) // 2
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(), position=types.Position(line=line, character=col))
    )
    assert h and "TO_STRING(int) -> string" in h.contents.value
    assert h.range.end.character == col + 1


@pytest.mark.asyncio
async def test_definition_of_a_variable(client: LanguageClient):
    await open_doc(client, BROKEN)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(), position=position_of(BROKEN, "(var x)", 5))
    )
    assert found.range.start == position_of(BROKEN, "x: int")
    none = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(), position=position_of(BROKEN, "ABS", 1))
    )
    assert not none


@pytest.mark.asyncio
async def test_completion_where_it_fits(client: LanguageClient):
    base = BROKEN.replace("(var totl)", "(var total)")
    at = base.index("      S2: RETURN")
    cases = [
        ("    EXPR: (call ", "LEN", "(int, int)"),
        ("    EXPR: (var ", "total", None),
        ("    EXPR: (", "add", None),
        ("", "ASSIGN", None),
    ]
    for i, (typed, want, _) in enumerate(cases):
        text = base[:at] + "      " + typed + "\n" + base[at:]
        uri = f"file:///isu-lsp-test/complete{i}.isu"
        await open_doc(client, text, uri=uri)
        pos = position_of(text, "      " + typed + "\n", 6 + len(typed))
        items = await client.text_document_completion_async(
            types.CompletionParams(text_document=doc(uri), position=pos)
        )
        items = items.items if hasattr(items, "items") else items
        labels = [c.label for c in items]
        assert want in labels, (typed, labels)
    # A function comes with its signature and documentation.
    text = base[:at] + "      EXPR: (call MAP_G\n" + base[at:]
    await open_doc(client, text, uri="file:///isu-lsp-test/sig.isu")
    pos = position_of(text, "MAP_G\n", 5)
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc("file:///isu-lsp-test/sig.isu"), position=pos)
    )
    items = items.items if hasattr(items, "items") else items
    get_or = next(c for c in items if c.label == "MAP_GET_OR")
    assert get_or.detail.startswith("MAP_GET_OR(map<K,V>, K, V) -> V"), get_or.detail
    assert get_or.text_edit.range.start == position_of(text, "MAP_G\n")
    # Fields a step lacks, after what it has.
    text = BROKEN.replace("            ELSE: { }\n", "")
    text = text.replace("            }\n        }", "            }\n            \n        }", 1)
    await open_doc(client, text, uri="file:///isu-lsp-test/fields.isu")
    pos = position_of(text, "            \n        }", 12)
    items = await client.text_document_completion_async(
        types.CompletionParams(text_document=doc("file:///isu-lsp-test/fields.isu"), position=pos)
    )
    items = items.items if hasattr(items, "items") else items
    fields = [c.label for c in items if c.kind == types.CompletionItemKind.Keyword]
    assert "ELSE" in fields and "COND" not in fields and "THEN" not in fields, fields


@pytest.mark.asyncio
async def test_running_the_examples(client: LanguageClient):
    await open_doc(client, FAILING)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc()))
    assert len(lenses) == 1 and lenses[0].command.title == "▶ Run the 2 IO examples"
    assert lenses[0].range.start == position_of(FAILING, "IO:")
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=lenses[0].command.command, arguments=lenses[0].command.arguments)
    )
    assert (result["examples"], result["passed"], result["failed"]) == (2, 1, 1)
    assert result["diagnostics"][0]["code"] == "test_mismatch"
    # Published before the answer.
    diags = client.diagnostics[URI]
    fail = next(d for d in diags if d.code == "test_mismatch")
    assert fail.source == "isu test"
    assert fail.range.start == position_of(FAILING, "S1: RETURN")
    assert fail.related_information[0].location.range.start == position_of(FAILING, "7]")
    # A change clears them.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=FAILING.replace("7]", "6]"))],
        )
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[URI]) == []


@pytest.mark.asyncio
async def test_bad_requests_get_errors_and_the_server_goes_on(client: LanguageClient):
    await open_doc(client, BROKEN)
    # (Parameters of the wrong shape, which this client cannot send, are
    # tested on raw JSON-RPC in host/tests/lsp.rs.)
    with pytest.raises(JsonRpcException) as bad:
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command="isu.nothing"))
    assert bad.value.code == -32602
    # A document never opened: no answer, no error.
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=doc("file:///nowhere.isu"), position=types.Position(line=0, character=0))
    )
    assert h is None
    # A position far outside the text.
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=doc(), position=types.Position(line=9999, character=9999))
    )
    assert h is None
    # Still serving.
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc()))
    assert [s.name for s in symbols] == ["S1", "S2"]


@pytest.mark.asyncio
async def test_documents_that_are_not_isu(client: LanguageClient):
    # Python opened as Isu: diagnostics, capped, and no crash.
    text = "def f(x):\n    return [x ** 2 for x in range(10)]\n" * 200
    diags = await open_doc(client, text, uri="file:///isu-lsp-test/not.isu")
    assert diags and len(diags) <= 300
    # A document of another language is left alone.
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri="file:///isu-lsp-test/notes.txt", language_id="plaintext", version=1, text="hello"
            )
        )
    )
    h = await client.text_document_hover_async(
        types.HoverParams(text_document=doc("file:///isu-lsp-test/notes.txt"), position=types.Position(line=0, character=1))
    )
    assert h is None
    # An enormous document: one diagnostic saying so.
    big = "; " + "x" * (5 << 20) + "\n"
    diags = await open_doc(client, big, uri="file:///isu-lsp-test/big.isu")
    assert [d.code for d in diags] == ["document_too_large"]
    # Binary-looking text.
    diags = await open_doc(client, "\x00\x01\x02((((]]]]", uri="file:///isu-lsp-test/bin.isu")
    assert diags


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[ISU, "lsp"]))
async def neovim(lsp_client: LanguageClient):
    """A client that offers UTF-8 positions (Neovim 0.11's capabilities)."""
    params = types.InitializeParams(capabilities=client_capabilities("neovim@v0.11.0"))
    result = await lsp_client.initialize_session(params)
    assert result.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_utf8_positions_when_the_client_offers_them(neovim: LanguageClient):
    text = BROKEN.replace(
        "EXPR: (call ABS (var total))",
        'EXPR: (call CONCAT (const "😀é") (call TO_STRING (var total)))',
    )
    await open_doc(neovim, text)
    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if "TO_STRING" in l)
    before = lines[line][: lines[line].index("TO_STRING") + len("TO_STRING") - 1]
    col = len(before.encode("utf-8"))
    h = await neovim.text_document_hover_async(
        types.HoverParams(text_document=doc(), position=types.Position(line=line, character=col))
    )
    assert h and "TO_STRING(int) -> string" in h.contents.value
    assert h.range.end.character == col + 1
