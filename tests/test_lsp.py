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
PLANTED = WORKED.replace("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N 330, S 110")
SCORE_LINE = PLANTED[: PLANTED.index("score N 330, S 110")].count("\n")  # 0-based
TRICK_10 = PLANTED[: PLANTED.index("trick 10: N 8S")].count("\n")


def pos(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


async def session(uri: str, steps: Any) -> dict[str, Any]:
    """Start the server (``python -m replayer lsp``), initialize, run ``steps(client, seen)``, shut down; what the
    server said, by name."""
    client = LanguageClient("test-client", "1")
    seen: dict[str, Any] = {"diagnostics": asyncio.Queue()}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        seen["diagnostics"].put_nowait(params)

    await client.start_io(sys.executable, "-m", "replayer", "lsp")
    result = await client.initialize_async(
        types.InitializeParams(capabilities=types.ClientCapabilities(), process_id=None, root_uri=None)
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
