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


def _modules() -> list[str]:
    """Every module and subpackage of the package, as a path from the repository's root (``replayer/rules/``)."""
    package = ROOT / "replayer"
    skip = ("__init__.py", "__main__.py")
    found = [f"replayer/{path.name}" for path in package.glob("*.py") if path.name not in skip]
    found += [f"replayer/{path.name}/" for path in package.iterdir() if (path / "__init__.py").is_file()]
    return sorted(found)


def test_readme_and_architecture_name_every_module() -> None:
    # (The generated tables are named by the compiler that makes them.)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    architecture = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    missing = [m for m in _modules() if m != "replayer/grammar_tables.py" and f"`{m}`" not in layout]
    assert not missing, f"README's layout table leaves out {missing}"
    named = [m for m in _modules() if f"`{m.removeprefix('replayer/')}`" not in architecture]
    assert not named, f"docs/architecture.md leaves out {named}"


def test_every_module_path_named_in_the_docs_exists() -> None:
    """A module moved or deleted leaves no reference behind in the docs, the grammar or the page script."""
    import re

    texts = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "grammar").glob("*.lark"))]
    texts += sorted((ROOT / "site_templates" / "static").glob("*.js"))
    named = {
        (text.name, path)
        for text in texts
        for path in re.findall(r"\breplayer/[\w/]+\.py\b", text.read_text(encoding="utf-8"))
    }
    assert len(named) > 10  # the docs do name modules by path: an empty set means the pattern broke
    assert [(name, path) for name, path in sorted(named) if not (ROOT / path).exists()] == []
