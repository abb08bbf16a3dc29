"""The renderers' disk cache: boards drawn from it are the bytes drawn without it; damaged
files and unusable directories fall back to building; a new process finds what an earlier
one stored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers
from renderers import PlayerInfo, diskcache, render_png
from renderers import backgammon as bg_renderer
from renderers import ludo as ludo_renderer
from renderers import ur as ur_renderer

ROOT = Path(__file__).resolve().parents[2]
# What the disk cache holds, and what is built from it in memory.
PERSISTED = (
    bg_renderer.palette,
    bg_renderer.static_board,
    ur_renderer.palette,
    ludo_renderer.palette,
)
DERIVED = (bg_renderer.numbered_board,)


@pytest.fixture(autouse=True)
def own_cache() -> Iterator[None]:
    yield
    diskcache.reset()
    forget()


def forget() -> None:
    """Empty the in-memory caches of everything the disk cache holds."""
    for fn in (*PERSISTED, *DERIVED):
        fn.cache.clear()  # type: ignore[attr-defined]
    renderers.recent_pngs.clear()


def boards() -> list[bytes]:
    """A few boards of each game in both themes, each drawn and encoded anew."""
    pngs = []
    for module in (bg_renderer, ur_renderer, ludo_renderer):
        for index, state in enumerate(module.sample_states()[1:4]):
            for theme in ("dark", "light"):
                renderers.recent_pngs.clear()
                players = [PlayerInfo("Ada", 0)]
                pngs.append(
                    render_png(
                        state, renderer=module, players=players, perspective=index % 2, theme=theme
                    )
                )
    return pngs


def stamps(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in folder.glob("*.img")}


def test_boards_from_the_disk_cache_are_the_same_bytes(tmp_path: Path) -> None:
    diskcache.use(None)
    forget()
    plain = boards()

    diskcache.use(tmp_path)
    forget()
    built = boards()
    folder = diskcache.directory()
    assert folder is not None and folder.parent == tmp_path
    stored = stamps(folder)
    assert len(stored) == 2 * len(PERSISTED)  # each in both themes

    forget()
    loaded = boards()
    assert plain == built == loaded
    assert stamps(folder) == stored  # read back, not built and written again


def test_damaged_files_are_rebuilt(tmp_path: Path) -> None:
    diskcache.use(None)
    forget()
    plain = boards()
    diskcache.use(tmp_path)
    forget()
    boards()
    folder = diskcache.directory()
    assert folder is not None
    files = sorted(folder.glob("*.img"))
    truncated, flipped, emptied = files[0], files[1], files[2]
    truncated.write_bytes(truncated.read_bytes()[:-7])
    data = bytearray(flipped.read_bytes())
    data[-3] ^= 0x40
    flipped.write_bytes(bytes(data))
    emptied.write_bytes(b"")
    forget()
    assert boards() == plain
    for path in (truncated, flipped, emptied):  # stored again, whole
        assert diskcache.parse(path.read_bytes()) is not None


def test_a_directory_that_cannot_be_made_means_no_cache(tmp_path: Path) -> None:
    diskcache.use(None)
    forget()
    plain = boards()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    diskcache.use(blocker / "cache")
    forget()
    assert diskcache.directory() is None
    assert boards() == plain
    assert blocker.read_text() == "not a directory"


def test_the_location_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(diskcache.ENV, str(tmp_path / "mine"))
    assert diskcache.default_root() == tmp_path / "mine"
    monkeypatch.delenv(diskcache.ENV, raising=False)
    if sys.platform.startswith("linux"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
        assert diskcache.default_root() == tmp_path / "xdg" / "tabula"
        monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
        assert diskcache.default_root() == Path.home() / ".cache" / "tabula"
    monkeypatch.setenv(diskcache.ENV, str(tmp_path / "mine"))
    diskcache.reset()
    folder = diskcache.directory()
    assert folder is not None and folder.parent == tmp_path / "mine"


def test_each_version_has_its_own_directory(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "board.py").write_text("WIDTH = 800\n")
    first = diskcache.source_hash([(source, ("*.py",))])
    assert diskcache.source_hash([(source, ("*.py",))]) == first
    (source / "board.py").write_text("WIDTH = 801\n")
    assert diskcache.source_hash([(source, ("*.py",))]) != first
    (source / "board.py").write_text("WIDTH = 800\n")
    (source / "more.py").write_text("")
    assert diskcache.source_hash([(source, ("*.py",))]) != first
    # The fingerprint covers the renderers, their fonts and the engines.
    covered = {folder.name: patterns for folder, patterns in diskcache.SOURCES}
    assert covered == {"renderers": ("*.py", "fonts/*"), "engines": ("*.py",)}


def test_unused_versions_are_removed(tmp_path: Path) -> None:
    old = tmp_path / f"{diskcache.PREFIX}0123456789abcdef01234567"
    recent = tmp_path / f"{diskcache.PREFIX}76543210fedcba9876543210"
    unrelated = tmp_path / "something-else"
    for folder in (old, recent, unrelated):
        folder.mkdir()
        (folder / "x.img").write_bytes(b"x")
    week_ago = time.time() - diskcache.KEEP_SECONDS - 60
    os.utime(old, (week_ago, week_ago))
    os.utime(unrelated, (week_ago, week_ago))
    diskcache.use(tmp_path)
    diskcache.store("probe.img", Image.new("L", (3, 2), 7))
    assert not old.exists()
    assert recent.exists() and unrelated.exists()


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_images_round_trip(mode: str) -> None:
    image = Image.new(mode, (5, 4))
    for i in range(20):
        value = (i * 13, 255 - i, i * 7, 200)[: len(mode)] if len(mode) > 1 else i * 11
        image.putpixel((i % 5, i // 5), value)
    if mode == "P":
        image.putpalette([(i * 37) % 256 for i in range(768)])
    data = diskcache.dump(image)
    back = diskcache.parse(data)
    assert back is not None
    assert back.mode == mode and back.size == image.size
    assert back.tobytes() == image.tobytes()
    assert back.getpalette() == image.getpalette()
    assert diskcache.parse(data[:-1]) is None
    assert diskcache.parse(b"PNG" + data) is None
    with pytest.raises(ValueError):
        diskcache.dump(Image.new("CMYK", (1, 1)))


CHILD = """
import hashlib, json
from renderers import backgammon, diskcache, ludo, render_png, ur, warm
folder = diskcache.directory()
before = sorted(p.name for p in folder.glob("*.img"))
warm([backgammon, ur, ludo], ("dark",))
pngs = [render_png(m.sample_states()[2], renderer=m) for m in (backgammon, ur, ludo)]
print(json.dumps({
    "folder": str(folder),
    "before": before,
    "after": {p.name: p.stat().st_mtime_ns for p in folder.glob("*.img")},
    "boards": [hashlib.sha256(png).hexdigest() for png in pngs],
}))
"""


def _child(cache: Path) -> dict[str, Any]:
    env = {**os.environ, diskcache.ENV: str(cache), "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_a_new_process_loads_what_the_first_stored(tmp_path: Path) -> None:
    first = _child(tmp_path)
    assert first["before"] == []
    assert len(first["after"]) == 4  # three palettes and the backgammon board, dark theme
    second = _child(tmp_path)
    assert second["folder"] == first["folder"]
    assert second["before"] == sorted(first["after"])
    assert second["after"] == first["after"]  # nothing built again
    assert second["boards"] == first["boards"]
