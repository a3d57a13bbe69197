"""The language server (issue 16), driven through pygls's own LSP client over stdio, as an editor drives it:
initialize, didOpen, didChange, the diagnostics, hover, definition, formatting, code actions, completion, shutdown.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMES

pytest.importorskip("pygls")
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from replayer.lsp import Workbench

WORKED = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
PLANTED_SCORE = ("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N 330, S 110")
PLANTED = WORKED.replace(*PLANTED_SCORE)
SCORE_LINE = PLANTED[: PLANTED.index("score N 330, S 110")].count("\n")  # 0-based
TRICK_10 = PLANTED[: PLANTED.index("trick 10: N 8S")].count("\n")


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def session(uri: str, steps: Any, capabilities: types.ClientCapabilities | None = None) -> dict[str, Any]:
    """Start the server (``python -m replayer lsp``), initialize, run ``steps(client, seen)``, shut down; what the
    server said, by name."""
    client = LanguageClient("test-client", "1")
    seen: dict[str, Any] = {"diagnostics": asyncio.Queue()}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        seen["diagnostics"].put_nowait(params)

    await client.start_io(sys.executable, "-m", "replayer", "lsp")
    result = await client.initialize_async(
        types.InitializeParams(capabilities=capabilities or types.ClientCapabilities(), process_id=None, root_uri=None)
    )
    seen["capabilities"] = result.capabilities
    client.initialized(types.InitializedParams())
    try:
        await asyncio.wait_for(steps(client, seen), 120)
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    seen["returncode"] = client._server.returncode if client._server is not None else None
    return seen


async def next_diagnostics(seen: dict[str, Any], uri: str) -> list[types.Diagnostic]:
    while True:
        params = await asyncio.wait_for(seen["diagnostics"].get(), 60)
        if params.uri == uri:
            return list(params.diagnostics)


def test_a_planted_wrong_score_hover_formatting_and_a_clean_shutdown(tmp_path: Path) -> None:
    path = tmp_path / "worked.bzq"
    path.write_text(WORKED, encoding="utf-8")
    uri = path.as_uri()

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=WORKED)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
        seen["opened"] = await next_diagnostics(seen, uri)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=PLANTED)],
            )
        )
        seen["changed"] = await next_diagnostics(seen, uri)
        ident = types.TextDocumentIdentifier(uri=uri)
        seen["hover"] = await client.text_document_hover_async(
            types.HoverParams(text_document=ident, position=pos(TRICK_10, 12))
        )
        seen["formatting"] = await client.text_document_formatting_async(
            types.DocumentFormattingParams(text_document=ident, options=types.FormattingOptions(2, True))
        )
        seen["actions"] = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=ident,
                range=types.Range(start=pos(SCORE_LINE, 0), end=pos(SCORE_LINE, 5)),
                context=types.CodeActionContext(diagnostics=seen["changed"]),
            )
        )
        line = PLANTED.split("\n")[TRICK_10]
        kind_line = next(i for i, t in enumerate(PLANTED.split("\n")) if "declares royal_marriage" in t)
        seen["definition"] = await client.text_document_definition_async(
            types.DefinitionParams(text_document=ident, position=pos(kind_line, 15))
        )
        seen["completion"] = await client.text_document_completion_async(
            types.CompletionParams(text_document=ident, position=pos(TRICK_10, len("trick 10: ")))
        )
        del line

    seen = asyncio.run(session(uri, steps))
    assert seen["opened"] == []
    (diagnostic,) = seen["changed"]
    assert (diagnostic.code, diagnostic.range.start.line, diagnostic.range.start.character) == ("BZ501", SCORE_LINE, 10)
    assert diagnostic.message == "wrong running score: the record says N 330, the rules give 320 after trick 10"
    assert "eight of spades" in seen["hover"].contents.value and "Trick 10" in seen["hover"].contents.value
    assert list(seen["formatting"]) == []  # the worked deal is canonical
    (action,) = seen["actions"]
    (edit,) = action.edit.changes[uri]
    assert edit.new_text == "320" and edit.range.start.character == 10
    assert seen["definition"].uri.endswith("classic.yaml")
    assert {item.label for item in seen["completion"].items} == {"JS", "8S", "AH", "KH", "AC", "10C", "KC"}
    assert seen["returncode"] == 0


def test_formatting_and_a_syntax_error_through_the_server(tmp_path: Path) -> None:
    messy = WORKED.replace("trick 2: N 9C, S 7H -> N", "TRICK  2:  N 9C,S 7H  ->  N")
    typo = PLANTED.replace("trick 9: S 9S, N 10S -> N", "trick 9: S 9S, N 10X -> N")
    uri = (tmp_path / "messy.bzq").as_uri()

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=messy)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
        await next_diagnostics(seen, uri)
        ident = types.TextDocumentIdentifier(uri=uri)
        seen["formatting"] = await client.text_document_formatting_async(
            types.DocumentFormattingParams(text_document=ident, options=types.FormattingOptions(2, True))
        )
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=typo)],
            )
        )
        seen["typo"] = await next_diagnostics(seen, uri)
        for text in ("", "{", "game", "trick 1: N ??\n" * 3, "\x00\ufeff}}{{"):
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                )
            )
            seen.setdefault("odd", []).append(await next_diagnostics(seen, uri))

    seen = asyncio.run(session(uri, steps))
    (edit,) = seen["formatting"]
    assert edit.new_text == WORKED
    # The typo and the planted score, both in one pass.
    assert [d.code for d in seen["typo"]] == ["BZ003", "BZ501"]
    assert all(not any("internal error" in d.message for d in found) for found in seen["odd"])
    assert [d.code for d in seen["odd"][0]] == ["BZ006"]


def test_hover_names_a_card_and_an_unknown_card_offers_its_completion() -> None:
    text = WORKED.replace("trick 9: S 9S, N 10S -> N", "trick 9: S 9S, N 10? -> N")
    bench = Workbench(text)
    line = text[: text.index("trick 9: S 9S")].count("\n")
    assert bench.hover(line, len("trick 9: S 9")).startswith("**9♠** nine of spades")
    (action,) = bench.actions(line, line)
    assert (action.new, action.start, action.end) == ("10S", len("trick 9: S 9S, N "), len("trick 9: S 9S, N 10?"))
    assert "completed as 10♠" in (bench.hover(line, len("trick 9: S 9S, N 1")) or "")


def test_the_command_says_how_to_install_what_is_missing(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import replayer.lsp
    from replayer.cli import main

    monkeypatch.setattr(replayer.lsp, "missing", lambda: ["pygls"])
    assert main(["lsp"]) == 2
    assert "pip install 'bezique-replayer[editor]'" in capsys.readouterr().err


# --- issue 23: the server's copy of a document is the client's ---------------------------------------------------

# What str.splitlines() breaks at and LSP does not, with emoji (two UTF-16 units, four UTF-8 bytes), Cyrillic (two
# UTF-8 bytes) and the suit signs (three): an edit or a diagnostic placed by the wrong count lands on the wrong text.
ODD = ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "😀", "🂡", "Юг", "♠", "é"]
PIECES = [*ODD, "\r", "\n", "\r\n", "a", " ", "{", "}", "trick", "QS", "10C", ", ", "0"]


class ModelClient:
    """What an editor does with a document, written independently of the server: lines end at ``\\n``, ``\\r\\n``
    and ``\\r``; a position's character counts code units of the negotiated encoding."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text = text
        self.encoding = encoding

    def lines(self) -> list[tuple[int, int]]:
        """(start, end before the line break) of each line."""
        found = []
        start = i = 0
        text = self.text
        while i < len(text):
            if text[i] == "\r" or text[i] == "\n":
                found.append((start, i))
                i += 2 if text[i : i + 2] == "\r\n" else 1
                start = i
            else:
                i += 1
        found.append((start, len(text)))
        return found

    def width(self, text: str) -> int:
        if self.encoding == "utf-8":
            return sum(len(c.encode("utf-8")) for c in text)
        if self.encoding == "utf-32":
            return len(text)
        return sum(2 if ord(c) > 0xFFFF else 1 for c in text)

    def position(self, offset: int) -> types.Position:
        for number, (start, end) in enumerate(self.lines()):
            if start <= offset <= end:
                return pos(number, self.width(self.text[start:offset]))
        raise AssertionError(f"offset {offset} is inside a line break")

    def boundary(self, rng: Any) -> int:
        """A random offset that a position can name: a character boundary that is not inside a line break."""
        start, end = rng.choice(self.lines())
        return rng.randint(start, end)

    def edit(self, rng: Any) -> types.TextDocumentContentChangePartial:
        """A random edit, applied to the model: a range replaced by a few pieces."""
        if rng.random() < 0.7:  # a keystroke's edit, inside a line
            start, end = rng.choice(self.lines())
            first = rng.randint(start, end)
            last = rng.randint(first, min(end, first + 2))
        else:
            first, last = sorted((self.boundary(rng), self.boundary(rng)))
        new = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3)))
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=self.position(first), end=self.position(last)), text=new
        )
        self.text = self.text[:first] + new + self.text[last:]
        return change

    def inside(self, position: types.Position) -> bool:
        lines = self.lines()
        if not 0 <= position.line < len(lines):
            return False
        start, end = lines[position.line]
        return 0 <= position.character <= self.width(self.text[start:end])


async def server_copy(client: LanguageClient, uri: str) -> dict[str, Any]:
    answer = await client.protocol.send_request_async("bezique/document", {"uri": uri})
    return {name: getattr(answer, name) for name in ("text", "version", "encoding")}


async def diagnostics_of(seen: dict[str, Any], uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics published for a version of a document (those of earlier versions passed over)."""
    while True:
        params = await asyncio.wait_for(seen["diagnostics"].get(), 60)
        if params.uri == uri and params.version == version:
            return list(params.diagnostics)


def odd_record(seed: int) -> str:
    """The worked record with odd characters in its comments, some of its lines ending in CRLF or a lone CR kept
    out of statements (inside comments)."""
    import random

    rng = random.Random(seed)
    text = WORKED
    out = []
    for index, char in enumerate(text):
        out.append(char)
        if char == "{" and rng.random() < 0.7:
            out.append("".join(rng.choice([*ODD, "\r", "\r\n"]) for _ in range(rng.randint(1, 4))))
        elif char == "\n" and rng.random() < 0.2 and index + 1 < len(text):
            out[-1] = "\r\n"
    return "".join(out)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8"])
def test_random_edit_sequences_keep_the_servers_copy_the_clients(tmp_path: Path, encoding: str) -> None:
    import random

    uri = (tmp_path / "odd.bzq").as_uri()

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        assert seen["capabilities"].position_encoding == encoding
        for seed in range(4):
            rng = random.Random(seed)
            model = ModelClient(odd_record(seed), encoding)
            version = 1
            doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=version, text=model.text)
            client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
            for _ in range(40):
                version += 1
                changes = [model.edit(rng) for _ in range(rng.randint(1, 3))]
                client.text_document_did_change(
                    types.DidChangeTextDocumentParams(
                        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                        content_changes=changes,
                    )
                )
                copy = await server_copy(client, uri)
                assert (copy["text"], copy["version"]) == (model.text, version), f"seed {seed}, version {version}"
            published = await diagnostics_of(seen, uri, version)
            for diagnostic in published:
                assert model.inside(diagnostic.range.start) and model.inside(diagnostic.range.end), diagnostic
            client.text_document_did_close(
                types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )

    capabilities = types.ClientCapabilities(general=types.GeneralClientCapabilities(position_encodings=[encoding]))
    asyncio.run(session(uri, steps, capabilities))


def test_an_edit_after_odd_line_breaks_lands_where_the_client_put_it(
    tmp_path: Path,
) -> None:
    import subprocess

    # A lone CR, U+2028 and a form feed in a comment before the planted score; an emoji before a typo on its line.
    odd = PLANTED.replace("{ The following game", "{ The\r following\u2028 game\x0c", 1)
    typo_line = "trick 9: S 9S, N 10S -> N"
    odd = odd.replace(typo_line, "trick 9: {?😀} S 9S, N 10X -> N", 1)
    model = ModelClient(odd, "utf-16")
    score_at = odd.index("330, S 110")
    typo_at = odd.index("10X")
    uri = (tmp_path / "odd.bzq").as_uri()

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=odd)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
        seen["opened"] = await diagnostics_of(seen, uri, 1)
        start, end = model.position(score_at), model.position(score_at + 3)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[
                    types.TextDocumentContentChangePartial(range=types.Range(start=start, end=end), text="320")
                ],
            )
        )
        seen["fixed"] = await diagnostics_of(seen, uri, 2)
        seen["formatting"] = await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(2, True)
            )
        )

    seen = asyncio.run(session(uri, steps))
    codes = [(d.code, d.range.start) for d in seen["opened"]]
    assert codes == [("BZ003", model.position(typo_at)), ("BZ501", model.position(score_at))]
    assert model.position(typo_at).character == len("trick 9: {?😀} S 9S, N ") + 1  # the emoji: two UTF-16 units
    assert [d.code for d in seen["fixed"]] == ["BZ003"]
    fixed = odd.replace("330, S 110", "320, S 110", 1)
    (edit,) = seen["formatting"] or [None]
    assert edit is None  # a record with a syntax error is not formatted
    assert model.inside(model.position(len(fixed)))
    done = subprocess.run(
        [sys.executable, "-m", "replayer", "fmt", "-"], input=fixed.encode("utf-8"), capture_output=True, check=False
    )
    assert done.returncode == 1


def test_the_formatting_edit_ends_inside_the_document_and_gives_bezique_fmts_bytes(tmp_path: Path) -> None:
    import subprocess

    messy = WORKED.replace("trick 2: N 9C, S 7H -> N", "TRICK  2:  N 9C,S 7H  ->  N").replace(
        "{ The following game", "{ The\r following\u2028 game 😀\x0c", 1
    )
    messy = messy.replace("\n", "\r\n", 40)
    model = ModelClient(messy, "utf-16")
    uri = (tmp_path / "messy.bzq").as_uri()

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=messy)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
        await diagnostics_of(seen, uri, 1)
        seen["formatting"] = await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(2, True)
            )
        )

    seen = asyncio.run(session(uri, steps))
    (edit,) = seen["formatting"]
    assert model.inside(edit.range.start) and model.inside(edit.range.end)
    assert (edit.range.start.line, edit.range.start.character) == (0, 0)
    assert edit.range.end == model.position(len(messy))
    after = edit.new_text  # (the edit replaces the whole document: checked above)
    expected = subprocess.run(
        [sys.executable, "-m", "replayer", "fmt", "-"], input=messy.encode("utf-8"), capture_output=True, check=True
    ).stdout
    assert after.encode("utf-8") == expected


# --- issue 23: a keystroke replays only the game it touched -----------------------------------------------------------


def test_the_server_splits_a_text_into_games_as_validate_splits_a_file() -> None:
    import io

    from replayer.check import game_chunks, game_texts

    texts = [
        '{ x\ngame "in a comment" }\ngame "a"\ndeal 1\n  game "b" {\n}\ngamer\ngame score N 1\nGAME\n',
        "",
        WORKED,
        WORKED + "\n" + WORKED.replace("{ The following", '{ game "not one"\n{? game } The following'),
        "game\r\ngame\r\n{\ngame",
    ]
    for text in texts:
        chunks = [(first, data.decode("utf-8")) for first, data in game_chunks(io.BytesIO(text.encode("utf-8")))]
        assert game_texts(text) == chunks


def test_an_edit_replays_again_only_the_game_it_touched() -> None:
    from replayer import lsp

    games = [WORKED.replace("Illustrative deal", f"Game {n}", 1) for n in range(3)]
    text = "\n".join(games)
    cache: dict[str, Any] = {}
    first = Workbench(text, "three.bzq", cache)
    assert first.diagnostics == [] and len(cache) == 3
    # A wrong score planted in the third game: its lines are the text's, the other two games are not replayed.
    edited = "\n".join([*games[:2], games[2].replace(*PLANTED_SCORE)])
    made: list[str] = []
    original = lsp._Game.__init__

    def counted(self: Any, text: str, path: str = "<record>", previous: Any = None) -> None:
        made.append(text)
        original(self, text, path, previous)

    lsp._Game.__init__ = counted  # type: ignore[method-assign]
    try:
        second = Workbench(edited, "three.bzq", cache)
    finally:
        lsp._Game.__init__ = original  # type: ignore[method-assign]
    assert made == [edited[edited.index(games[2][:30]) :]]
    line = edited[: edited.index("score N 330, S 110")].count("\n") + 1
    assert [(d.code, d.span.line, d.span.column) for d in second.diagnostics] == [("BZ501", line, 10 + 1)]
    assert len(cache) == 3  # the edited game's old text let go
    trick = edited.split("\n").index("trick 10: N 8S, S 8S -> N", line - 30)
    assert "Trick 10" in (second.hover(trick, 12) or "")
    (action,) = second.actions(line - 1, line - 1)
    assert (action.line, action.new) == (line - 1, "320")


@pytest.mark.parametrize(
    ("offered", "chosen"),
    [(None, "utf-16"), (["utf-16"], "utf-16"), (["utf-16", "utf-8"], "utf-8"), (["utf-32", "utf-16"], "utf-32")],
)
def test_utf8_positions_wherever_the_client_offers_them(tmp_path: Path, offered: Any, chosen: str) -> None:
    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        del client

    general = types.GeneralClientCapabilities(position_encodings=offered) if offered is not None else None
    seen = asyncio.run(session((tmp_path / "x.bzq").as_uri(), steps, types.ClientCapabilities(general=general)))
    assert seen["capabilities"].position_encoding == chosen


def test_the_documents_lines_and_positions_are_the_protocols() -> None:
    from replayer.lsp import Document

    text = "a\u2028b\x0c😀c\r\nd\re\n"
    doc = Document(text, 1, "utf-16")
    assert [doc.line(n) for n in range(4)] == ["a\u2028b\x0c😀c", "d", "e", ""]
    assert doc.position(text.index("c")) == (0, 6)  # the emoji is two UTF-16 units
    assert Document(text, 1, "utf-8").position(text.index("c")) == (0, 10)  # U+2028 three bytes, the emoji four
    assert doc.position(text.index("\n")) == (0, 7)  # between "\r" and "\n": the line's end
    assert doc.end() == (3, 0) and doc.offset(9, 0) == len(text) and doc.offset(1, 99) == text.index("d") + 1
    assert doc.to_reader(2, 1) == (1, 3)  # the reader breaks at "\n" only: "d\re" is its second line
    doc.change("X", (0, 6), (1, 1))  # from after the emoji to the end of "d": the line break goes too
    assert doc.text == "a\u2028b\x0c😀X\re\n" and doc.line(1) == "e"


def test_quick_keystrokes_are_validated_once_and_never_out_of_order(tmp_path: Path) -> None:
    uri = (tmp_path / "quick.bzq").as_uri()
    scores = [f"score N {320 + n}, S 110" for n in range(10)]

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=WORKED)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
        await diagnostics_of(seen, uri, 1)
        for version, score in enumerate(scores, 2):  # ten changes at once, as fast typing sends them
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[
                        types.TextDocumentContentChangeWholeDocument(text=WORKED.replace("score N 320, S 110", score))
                    ],
                )
            )
        published = []
        while not published or published[-1].version != 11:
            params = await asyncio.wait_for(seen["diagnostics"].get(), 60)
            published.append(params)
        seen["published"] = published

    seen = asyncio.run(session(uri, steps))
    versions = [p.version for p in seen["published"]]
    assert versions == sorted(versions) and len(versions) < 10, versions  # (one, unless the typing paused)
    (last,) = seen["published"][-1].diagnostics
    assert last.code == "BZ501" and "N 329" in last.message


def test_variations_too_deep_are_a_diagnostic_and_formatting_declines(tmp_path: Path) -> None:
    line = "trick 10: N 8S, S 8S -> N\n"
    anchor = line + "  draws N 8H, S JH\n  score N 320, S 110\n"
    deep = WORKED.replace(anchor, anchor + ("(\n" + line) * 330 + ")\n" * 330, 1)
    uri = (tmp_path / "deep.bzq").as_uri()

    async def steps(client: LanguageClient, seen: dict[str, Any]) -> None:
        doc = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=deep)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=doc))
        seen["opened"] = await diagnostics_of(seen, uri, 1)
        seen["formatting"] = await client.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(2, True)
            )
        )

    seen = asyncio.run(session(uri, steps))
    assert [d.code for d in seen["opened"]] == ["BZ115"]
    assert seen["formatting"] is None  # (not an error -32603: the record does not read, so it is left as it is)
