"""The shipped rule profiles: a YAML file each (``NAME.yaml``), and the code that finds and loads them.

The YAML files are the source of truth. ``compiled.json`` holds what ``yaml.safe_load`` makes of each, keyed by a
hash of the file's bytes, so that a command starts without loading and running the YAML reader;
``python -m replayer.profiles`` rewrites it. A profile whose file has changed since (its hash differs) is read from
its YAML as before: a stale compiled form is never used. This is the only module that imports yaml, and it only
uses ``yaml.safe_load``.

A profile may ``extends: NAME`` another shipped profile: its keys are merged over the base's (as an option's
``sets`` are, :func:`replayer.profile.merge_profile_data`), so that a variant restates only what differs; its
compiled form is keyed by its bytes and its base's.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..errors import RuleProfileError
from ..profile import RuleProfile, build_profile, merge_profile_data

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


def _chained(raw: bytes, base_digest: str) -> str:
    """The digest of a profile that extends another: of its own bytes and its base's digest (a change to either
    makes its compiled form stale)."""
    return _digest(raw + b"\0" + base_digest.encode("ascii"))


def _shipped_data(name: str, raw: bytes) -> Any:
    """What ``yaml.safe_load`` makes of a shipped profile's bytes, the profile it ``extends`` merged in: the compiled
    form when it is of these bytes (and of its base's)."""
    return _resolved(name, raw, ())[0]


def _resolved(name: str, raw: bytes | None, seen: tuple[str, ...]) -> tuple[Any, str, str | None]:
    """(data, digest, the base it extends) of a shipped profile, its base merged in."""
    if raw is None:
        resource = _profile_folder() / f"{name}.yaml"
        if not resource.is_file():
            raise RuleProfileError(f"unknown profile {name!r} to extend (profiles: {', '.join(profile_names())})")
        raw = resource.read_bytes()
    entry = _compiled().get(name)
    if isinstance(entry, dict) and name not in seen:
        base = entry.get("extends")
        digest = _digest(raw) if not isinstance(base, str) else _chained(raw, _resolved(base, None, (*seen, name))[1])
        if entry.get(_HASH) == digest:
            return entry.get("data"), digest, base if isinstance(base, str) else None
    where = f"profiles/{name}.yaml"
    return _extended(_safe_load(raw.decode("utf-8"), where), raw, where, (*seen, name))


def _extended(data: Any, raw: bytes, where: str, seen: tuple[str, ...]) -> tuple[Any, str, str | None]:
    """A profile's data with the shipped profile it names in ``extends`` merged under it (its own keys replace the
    base's, mapping by mapping; ``KEY+`` appends to a list of the base; ``null`` deletes a key of the base)."""
    if not isinstance(data, dict) or "extends" not in data:
        return data, _digest(raw), None
    base = data["extends"]
    if not isinstance(base, str):
        raise RuleProfileError(f"{where}: key 'extends': expected the name of a shipped profile")
    if base in seen:
        raise RuleProfileError(f"{where}: key 'extends': {base} extends {seen[-1]} in a circle")
    base_data, base_digest, _ = _resolved(base, None, seen)
    own = {key: value for key, value in data.items() if key != "extends"}
    return merge_profile_data(base_data, own), _chained(raw, base_digest), base


def compile_profiles() -> dict[str, Any]:
    """The compiled form of every shipped profile (see the module's docstring); what ``python -m replayer.profiles``
    writes. A profile whose YAML data JSON cannot carry unchanged is left out (it is read from its YAML)."""
    import json

    compiled = {}
    for name in profile_names():
        raw = (_profile_folder() / f"{name}.yaml").read_bytes()
        where = f"profiles/{name}.yaml"
        data, digest, base = _extended(_safe_load(raw.decode("utf-8"), where), raw, where, (name,))
        if json.loads(json.dumps(data)) == data:
            compiled[name] = {_HASH: digest, "data": data}
            if base is not None:
                compiled[name]["extends"] = base
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
        data = _extended(_safe_load(text, where), text.encode("utf-8"), where, ())[0]
        return build_profile(data, where)
    resource = _profile_folder() / f"{name_or_path}.yaml"
    if not resource.is_file():
        known = ", ".join(profile_names())
        raise RuleProfileError(f"unknown profile {name_or_path!r} (profiles: {known})")
    return build_profile(_shipped_data(name_or_path, resource.read_bytes()), f"profiles/{name_or_path}.yaml")
