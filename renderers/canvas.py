"""Where a board is drawn: straight onto its palette, mapping only what each paste covers.

Every board is a cached static image with sprites, text and arrows pasted over it. Drawing it
in RGB and then mapping all of its pixels onto the palette costs about as much as the drawing
itself, although most pixels are the static board's, the same on every render. A
:class:`Canvas` in palette mode starts from the static board already mapped (once per board)
and maps only the box each paste covers: the box's RGB pixels (the static board's, and those
of earlier pastes that reach into it) are blended with the paste and that box alone is mapped.
The result is the same image, byte for byte, as drawing in RGB and mapping the whole of it,
because the mapping is a pure function of each pixel's colour.

Mapped boxes are cached, because boards repeat their pastes: the same checker stack, die or
name strip lands on the same spot of the same static board again and again, and a cached
paste is one copy of its mapped box. A box's key is what decided its pixels: the static board,
what was pasted with which mask where, and the cached boxes it was pasted over. The cache
keeps boxes mapped only (a byte a pixel) with how to blend them again: a paste over a cached
box rebuilds that box's RGB pixels from the static board and its pastes, which is rare (it
happens when the pair is new) and cheap (a few small pastes).

Without a palette a canvas is a plain RGB image: ``render`` and the palettes' sample boards
draw that way.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image

Box = tuple[int, int, int, int]
Ink = Image.Image | tuple[int, ...]
Paste = tuple[Ink, Box, Image.Image | None]  # PIL's paste arguments, the box whole
# A tile's pastes, or what makes them again (an arrow's masks are not kept with its tile).
Pastes = tuple[Paste, ...] | Callable[[], Sequence[Paste]]

# Mapped boxes kept, in bytes of their pixels (the cache is emptied whole when full): a few
# thousand boxes, far more than the boards of a few hundred games in play use.
MAX_CACHED_BYTES = 48 * 1024 * 1024


class Surface(Protocol):
    """What drawing code needs of its target: a PIL image or a :class:`Canvas`."""

    @property
    def size(self) -> tuple[int, int]: ...

    def paste(
        self,
        im: Ink,
        box: tuple[int, int] | Box,
        mask: Image.Image | None = None,
    ) -> None: ...


@dataclass(frozen=True, slots=True, eq=False)
class Tile:
    """A box of a board after some pastes: mapped onto the palette (``mapped``), and how its
    RGB pixels come about (the static board ``base``, the tiles ``under`` it, its
    ``pastes``), for a later paste over it to blend with. ``serial`` names it in the keys of
    tiles pasted over it."""

    serial: int
    box: Box
    mapped: Image.Image
    base: Image.Image
    under: tuple[Tile, ...]
    pastes: Pastes = field(repr=False)

    def rgb(self, built: dict[int, Image.Image]) -> Image.Image:
        """The box's RGB pixels; ``built`` keeps those of one render's tiles."""
        found = built.get(self.serial)
        if found is None:
            found = blend(self.base, self.box, self.under, self.pastes, built)
            built[self.serial] = found
        return found


def blend(
    base: Image.Image,
    box: Box,
    under: Sequence[Tile],
    pastes: Pastes,
    built: dict[int, Image.Image],
) -> Image.Image:
    """The RGB pixels of ``box``: ``base``'s, the tiles ``under`` it in the order they were
    pasted, then ``pastes`` (at board coordinates)."""
    left, top = box[0], box[1]
    rgb = base.crop(box)
    for tile in under:
        rgb.paste(tile.rgb(built), (tile.box[0] - left, tile.box[1] - top))
    for im, at, mask in pastes() if callable(pastes) else pastes:
        rgb.paste(im, (at[0] - left, at[1] - top, at[2] - left, at[3] - top), mask)
    return rgb


class Tiles:
    """Tiles by what decided their pixels, shared by every render thread.

    Two generations stand in for least-recently-used eviction: new tiles go into the young
    one, a tile found in the old one moves up, and when the young one is full it becomes the
    old one (the old one's tiles nobody asked for since are dropped). Dict reads and writes
    are atomic, and a tile built twice by two threads has the same pixels.
    """

    def __init__(self, max_bytes: int = MAX_CACHED_BYTES) -> None:
        self.max_bytes = max_bytes
        self._young: dict[Hashable, Tile] = {}
        self._old: dict[Hashable, Tile] = {}
        self._bytes = 0  # of the young generation
        self._serials = itertools.count()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Tile | None:
        tile = self._young.get(key)
        if tile is None:
            tile = self._old.get(key)
            if tile is not None:
                self._add(key, tile)
        return tile

    def put(
        self,
        key: Hashable,
        box: Box,
        mapped: Image.Image,
        base: Image.Image,
        under: tuple[Tile, ...],
        pastes: Pastes,
    ) -> Tile:
        # A key names pasted images by id(): the tile holds them (in ``pastes``), so those
        # ids stay theirs while the key is kept.
        tile = Tile(next(self._serials), box, mapped, base, under, pastes)
        self._add(key, tile)
        return tile

    def _add(self, key: Hashable, tile: Tile) -> None:
        with self._lock:
            if self._bytes > self.max_bytes // 2:
                self._old, self._young, self._bytes = self._young, {}, 0
            self._young[key] = tile
            self._bytes += tile.mapped.width * tile.mapped.height + 200

    def __len__(self) -> int:
        return len(self._young) + len(self._old)

    def clear(self) -> None:
        with self._lock:
            self._young, self._old, self._bytes = {}, {}, 0


tiles = Tiles()
_mapped_bases: dict[tuple[int, int], tuple[Image.Image, Image.Image, Image.Image]] = {}
_bases_lock = threading.Lock()


def map_onto(image: Image.Image, palette: Image.Image) -> Image.Image:
    """``image`` (RGB) as a ``P`` image on ``palette``: nearest colour, no dithering."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def mapped_base(base: Image.Image, palette: Image.Image) -> Image.Image:
    """The static board ``base`` mapped onto ``palette``, once per pair (both are cached
    images that live as long as the process)."""
    key = (id(base), id(palette))
    found = _mapped_bases.get(key)
    if found is not None:
        return found[0]
    mapped = map_onto(base, palette)
    with _bases_lock:
        _mapped_bases[key] = (mapped, base, palette)
    return mapped


class Canvas:
    """A board being drawn on ``base`` (which is not changed): in RGB without ``palette``,
    else in palette mode (see the module's doc). Offers the one drawing call boards use,
    :meth:`paste`, with PIL's meaning, and :meth:`paste_group`."""

    def __init__(self, base: Image.Image, palette: Image.Image | None = None) -> None:
        self.base = base
        self.palette = palette
        if palette is None:
            self.image = base.copy()
        else:
            mapped = mapped_base(base, palette)
            self.image = mapped.copy()
            self._base_key = id(mapped)
        self._drawn: list[Tile] = []  # palette mode: the pastes so far, in order
        self._built: dict[int, Image.Image] = {}  # RGB pixels of tiles, as needed

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def paste(
        self,
        im: Ink,
        box: tuple[int, int] | Box,
        mask: Image.Image | None = None,
    ) -> None:
        """Paste ``im`` (an image, or a colour through ``mask``) at ``box``, as PIL does."""
        if self.palette is None:
            self.image.paste(im, box, mask)
            return
        if len(box) == 2:
            size = im.size if isinstance(im, Image.Image) else mask.size if mask else (0, 0)
            box = (box[0], box[1], box[0] + size[0], box[1] + size[1])
        what = id(im) if isinstance(im, Image.Image) else im
        self._map_box(box, (what, id(mask)), ((im, box, mask),))

    def paste_group(self, box: Box, pastes: Callable[[], Sequence[Paste]], name: Hashable) -> None:
        """The pastes ``pastes()`` makes, in order, all inside ``box``, mapped as one box: one
        box for a drawing of many parts (an arrow), whose parts are only made when the box
        is not cached. ``name`` stands for them in the cache's keys, by value."""
        if self.palette is None:
            for im, at, mask in pastes():
                self.image.paste(im, at, mask)
            return
        self._map_box(box, name, pastes)

    def _map_box(
        self,
        box: Box,
        name: Hashable,
        pastes: Pastes,
    ) -> None:
        left, top, right, bottom = box
        if right <= left or bottom <= top:
            return
        under = tuple(
            tile
            for tile in self._drawn
            if tile.box[0] < right
            and left < tile.box[2]
            and tile.box[1] < bottom
            and top < tile.box[3]
        )
        key = (self._base_key, name, box, tuple(tile.serial for tile in under))
        tile = tiles.get(key)
        if tile is None:
            assert self.palette is not None
            rgb = blend(self.base, box, under, pastes, self._built)
            mapped = map_onto(rgb, self.palette)
            tile = tiles.put(key, box, mapped, self.base, under, pastes)
            self._built[tile.serial] = rgb
        self.image.paste(tile.mapped, (left, top))
        self._drawn.append(tile)
