"""The documentation agrees with the code: README's commands, .ci/run, the error catalogue."""

from __future__ import annotations

from conftest import ROOT

from replayer.errors import CODES, catalogue_markdown


def test_ci_runs_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in ci.splitlines() if line.startswith("pip install"))
    assert f"\n{command}\n" in readme


def test_error_catalogue_is_current() -> None:
    assert (ROOT / "docs" / "errors.md").read_text(encoding="utf-8") == catalogue_markdown()
    assert all(code.startswith("BZ") and len(code) == 5 for code in CODES)
