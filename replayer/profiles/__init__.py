"""The shipped rule profiles: a YAML file each (``NAME.yaml``), and the code that finds and loads them.

The YAML files are the source of truth. ``compiled.json`` holds what ``yaml.safe_load`` makes of each, keyed by a
hash of the file's bytes, so that a command starts without loading and running the YAML reader;
``python -m replayer.profiles`` rewrites it. A profile whose file has changed since (its hash differs) is read from
its YAML as before: a stale compiled form is never used. This is the only module that imports yaml, and it only
uses ``yaml.safe_load``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..errors import RuleProfileError
from ..profile import RuleProfile, build_profile

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["compile_profiles", "load_profile", "profile_names", "write_compiled_profiles"]


def _profile_folder() -> Path:
    # This package's own folder (importlib.resources would cost a start-up the import of zipfile and tempfile).
    return Path(__file__).resolve().parent


def profile_names() -> list[str]:
    """Names of the profiles shipped with the package."""
    return sorted(p.name[:-5] for p in _profile_folder().iterdir() if p.name.endswith(".yaml"))


_COMPILED = "compiled.json"


_HASH = "blake2b"
"""The hash of a YAML file's bytes that its compiled entry is keyed by."""


def _digest(data: bytes) -> str:
    try:  # hashlib's own BLAKE2 (it prefers it to OpenSSL's), without hashlib's import of OpenSSL: 2 ms of a start
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - a Python built without it
        from hashlib import blake2b
    return blake2b(data).hexdigest()


@cache
def _compiled() -> dict[str, Any]:
    """The compiled profiles by name (empty when the file is missing or unreadable: the YAML is read instead)."""
    import json

    try:
        loaded = json.loads((_profile_folder() / _COMPILED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _safe_load(text: str | bytes, where: str) -> Any:
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RuleProfileError(f"{where}: not valid YAML: {exc}") from None


def _shipped_data(name: str, raw: bytes) -> Any:
    """What ``yaml.safe_load`` makes of a shipped profile's bytes: the compiled form when it is of these bytes."""
    entry = _compiled().get(name)
    if isinstance(entry, dict) and entry.get(_HASH) == _digest(raw):
        return entry.get("data")
    return _safe_load(raw.decode("utf-8"), f"profiles/{name}.yaml")


def compile_profiles() -> dict[str, Any]:
    """The compiled form of every shipped profile (see the module's docstring); what ``python -m replayer.profiles``
    writes. A profile whose YAML data JSON cannot carry unchanged is left out (it is read from its YAML)."""
    import json

    compiled = {}
    for name in profile_names():
        raw = (_profile_folder() / f"{name}.yaml").read_bytes()
        data = _safe_load(raw.decode("utf-8"), f"profiles/{name}.yaml")
        if json.loads(json.dumps(data)) == data:
            compiled[name] = {_HASH: _digest(raw), "data": data}
    return compiled


def write_compiled_profiles() -> Path:
    """Rewrite ``replayer/profiles/compiled.json`` from the YAML files; returns its path."""
    import json

    path = _profile_folder() / _COMPILED
    text = json.dumps(compile_profiles(), ensure_ascii=False, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


@cache
def load_profile(name_or_path: str) -> RuleProfile:
    """Load a profile by name (``classic``) or from a YAML file path; raises :class:`RuleProfileError`."""
    if name_or_path.endswith((".yaml", ".yml")) or "/" in name_or_path:
        path = Path(name_or_path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RuleProfileError(f"{path}: cannot read the profile: {exc.strerror}") from None
        where = str(path)
        return build_profile(_safe_load(text, where), where)
    resource = _profile_folder() / f"{name_or_path}.yaml"
    if not resource.is_file():
        known = ", ".join(profile_names())
        raise RuleProfileError(f"unknown profile {name_or_path!r} (profiles: {known})")
    return build_profile(_shipped_data(name_or_path, resource.read_bytes()), f"profiles/{name_or_path}.yaml")
