"""Palettes and costly static boards, kept on disk between runs.

A game's palette is fitted to sample renders of a seeded game (about 0.15-0.2 s of CPU per
game and theme) and the backgammon board is drawn at four times its size (0.1 s): together
nearly all of ``renderers.warm``, which a restarted bot used to pay before its first boards.
They are pure functions of the renderers' and engines' source, the shipped fonts, Pillow and
Python, so they are built once, stored in a directory named by a hash of all of those, and
loaded from there by every later process in a few milliseconds.

Where: ``TABULA_CACHE_DIR`` if set, else the user's cache directory: ``$XDG_CACHE_HOME/tabula``
or ``~/.cache/tabula`` (``~/Library/Caches/tabula`` on macOS, ``%LOCALAPPDATA%\\tabula\\Cache``
on Windows). Nothing read back is trusted beyond its checksum: a file that is missing,
truncated or corrupt, or a directory that cannot be created or written, only means that the
value is built as it would be without a cache (and stored if possible). The images are the
same bytes either way. Other versions' directories are removed once unused for a week.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import re
import shutil
import sys
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ParamSpec

import PIL
from PIL import Image

import bot.engines

P = ParamSpec("P")

ENV = "TABULA_CACHE_DIR"
FORMAT = 1  # bump when the file layout below changes
MAGIC = b"TABULA-IMAGE\n"
PREFIX = "boards-"
KEEP_SECONDS = 7 * 24 * 3600  # other versions' directories, once unused this long
MODES = ("RGB", "RGBA", "L", "P")
SOURCES = (
    (Path(__file__).resolve().parent, ("*.py", "fonts/*")),
    (Path(bot.engines.__file__).resolve().parent, ("*.py",)),
)

log = logging.getLogger("tabula.renderers")

_lock = threading.Lock()
_override: list[Path | None] = []  # set by use(): tests and benchmarks pick the directory
_state: dict[str, Any] = {}  # "dir": the resolved directory or None; "pruned": bool


def default_root() -> Path | None:
    """The cache directory this process would use (before the version's subdirectory), or
    None when there is none (no home directory)."""
    configured = os.environ.get(ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    try:
        home = Path.home()
    except (RuntimeError, KeyError):
        return None
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "tabula" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "tabula"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else home / ".cache") / "tabula"


def source_hash(sources: Sequence[tuple[Path, Sequence[str]]]) -> str:
    """A hash of the files matching each folder's patterns (names and contents), and of the
    versions of this file's format, Pillow and Python."""
    digest = hashlib.sha256()
    digest.update(f"{FORMAT}|{PIL.__version__}|{sys.version_info[:2]}".encode())
    for root, patterns in sources:
        files = sorted({path for pattern in patterns for path in root.glob(pattern)})
        for path in files:
            if path.is_file():
                digest.update(f"|{root.name}/{path.relative_to(root).as_posix()}|".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


@functools.cache
def fingerprint() -> str:
    """A hash of everything the cached images are computed from."""
    return source_hash(SOURCES)


def use(root: Path | None) -> None:
    """Cache under ``root`` from now on (None: no disk cache); for tests and benchmarks."""
    with _lock:
        _override[:] = [root]
        _state.clear()


def reset() -> None:
    """Back to the directory the environment names (undoes :func:`use`)."""
    with _lock:
        _override.clear()
        _state.clear()


def directory() -> Path | None:
    """This version's directory, created if need be; None when the cache is off or cannot
    be created (then everything is built in memory, as without a cache)."""
    with _lock:
        if "dir" in _state:
            found: Path | None = _state["dir"]
            return found
        root = _override[0] if _override else default_root()
        found = None
        if root is not None:
            here = root / f"{PREFIX}{fingerprint()}"
            try:
                here.mkdir(parents=True, exist_ok=True)  # an existing read-only one still serves
            except OSError as error:
                log.info("no board cache at %s (%s): boards are built in memory", root, error)
            else:
                found = here
                with contextlib.suppress(OSError):
                    os.utime(here)  # marks this version's directory as in use (see _prune)
        _state["dir"] = found
        return found


def entry_name(scope: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> str:
    """A file name for ``fn(*args)`` of module ``scope``: readable, and unique through a hash
    of the arguments."""
    text = f"{scope}.{fn.__qualname__}{args!r}"
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{scope}.{fn.__qualname__}-{args}")
    return f"{readable[:80].strip('-')}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.img"


def dump(image: Image.Image) -> bytes:
    """The file holding ``image``: a header line, then the palette and the compressed pixels,
    with a checksum over both."""
    if image.mode not in MODES:
        raise ValueError(f"Cannot store a {image.mode} image.")
    palette = bytes(image.getpalette() or []) if image.mode == "P" else b""
    pixels = zlib.compress(image.tobytes(), 1)
    body = palette + pixels
    header = {
        "mode": image.mode,
        "size": list(image.size),
        "palette": len(palette),
        "length": len(body),
        "crc": zlib.crc32(body),
    }
    return MAGIC + json.dumps(header).encode() + b"\n" + body


def parse(data: bytes) -> Image.Image | None:
    """The image in ``data`` (as written by :func:`dump`), or None if it is not exactly
    that."""
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC))
    if end < 0:
        return None
    try:
        header = json.loads(data[len(MAGIC) : end])
        body = data[end + 1 :]
        if len(body) != header["length"] or zlib.crc32(body) != header["crc"]:
            return None
        mode, (width, height), cut = header["mode"], header["size"], header["palette"]
        if mode not in MODES:
            return None
        image = Image.frombytes(mode, (width, height), zlib.decompress(body[cut:]))
        if mode == "P":
            image.putpalette(list(body[:cut]))
        return image
    except (ValueError, KeyError, TypeError, zlib.error):
        return None


def load(name: str) -> Image.Image | None:
    here = directory()
    if here is None:
        return None
    try:
        data = (here / name).read_bytes()
    except OSError:
        return None
    image = parse(data)
    if image is None:
        log.info("ignoring a damaged board cache file %s", here / name)
    return image


def store(name: str, image: Image.Image) -> None:
    here = directory()
    if here is None:
        return
    temporary = here / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        temporary.write_bytes(dump(image))
        os.replace(temporary, here / name)  # atomic: another process reads all or nothing
    except OSError as error:
        log.info("could not store %s in the board cache (%s)", name, error)
        temporary.unlink(missing_ok=True)
        return
    _prune(here)


def _prune(here: Path) -> None:
    """Once per process: remove other versions' directories unused for KEEP_SECONDS."""
    with _lock:
        if _state.get("pruned"):
            return
        _state["pruned"] = True
    cutoff = time.time() - KEEP_SECONDS
    try:
        siblings = [p for p in here.parent.iterdir() if p.name.startswith(PREFIX) and p != here]
        for sibling in siblings:
            if sibling.is_dir() and sibling.stat().st_mtime < cutoff:
                shutil.rmtree(sibling, ignore_errors=True)
    except OSError:
        pass


def persisted(
    scope: str,
) -> Callable[[Callable[P, Image.Image]], Callable[P, Image.Image]]:
    """Keep the images a function returns on disk, by its positional arguments (their
    ``repr``); ``scope`` is its module's ``__name__``. Put ``@cached`` above it: the
    in-memory cache answers first and builds each key once."""

    def decorate(fn: Callable[P, Image.Image]) -> Callable[P, Image.Image]:
        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> Image.Image:
            if kwargs:
                return fn(*args, **kwargs)
            name = entry_name(scope, fn, args)
            image = load(name)
            if image is None:
                image = fn(*args, **kwargs)
                store(name, image)
            return image

        return wrapper

    return decorate
