"""Build the fallback fonts shipped in renderers/fonts/ (see renderers/fonts/README.txt).

    apt-get install fonts-noto-core fonts-noto-cjk     # Debian 12: 20201225-1, 1:20220127
    npm pack @expo-google-fonts/noto-emoji@0.4.7 && tar xzf expo-google-fonts-noto-emoji-0.4.7.tgz
    python docs/make_fonts.py path/to/package           # the unpacked npm package

Devanagari, Arabic and the monochrome emoji are copied as they are; Noto Sans CJK (20 MB a
weight) is cut with fontTools to the characters of the national standard sets that names
are written in: GB 2312 (simplified Chinese), Big5 level 1 (traditional Chinese), JIS X 0208
(Japanese kanji), KS X 1001 (Korean hangul syllables and hanja), all kana, the CJK
punctuation and full-width forms; its Simplified Chinese face (index 2 of the collection).
Only the regular weight: bold text draws its CJK characters in the regular one.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "renderers" / "fonts"
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
COPIED = [
    "NotoSansDevanagari-Regular.ttf",
    "NotoSansDevanagari-Bold.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansArabic-Bold.ttf",
]


def decodable(codec: str, leads: range, trails: list[int]) -> set[int]:
    """The characters a two-byte codec maps the given bytes to."""
    found = set()
    for lead in leads:
        for trail in trails:
            try:
                text = bytes([lead, trail]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(ord(text))
    return found


def cjk_characters() -> str:
    euc = list(range(0xA1, 0xFF))
    big5 = list(range(0x40, 0x7F)) + euc
    wanted = (
        decodable("gb2312", range(0xB0, 0xF8), euc)  # GB 2312 levels 1 and 2
        | decodable("big5", range(0xA4, 0xC7), big5)  # Big5 level 1
        | decodable("euc_jp", range(0xB0, 0xF5), euc)  # JIS X 0208 kanji
        | decodable("euc_kr", range(0xB0, 0xFE), euc)  # KS X 1001 hangul and hanja
    )
    wanted |= set(range(0x3000, 0x3100)) | set(range(0x3130, 0x3190))  # punctuation, kana, jamo
    wanted |= set(range(0x31F0, 0x3200)) | set(range(0xFF01, 0xFFEF))  # kana ext., full width
    return "".join(chr(point) for point in sorted(wanted))


def main(emoji_package: Path) -> None:
    for name in COPIED:
        shutil.copyfile(NOTO / name, OUT / name)
    shutil.copyfile(
        emoji_package / "400Regular" / "NotoEmoji_400Regular.ttf", OUT / "NotoEmoji-Regular.ttf"
    )
    chars = OUT / "cjk-characters.txt"
    chars.write_text(cjk_characters(), encoding="utf-8")
    subprocess.run(
        [
            sys.executable, "-m", "fontTools.subset", str(CJK), "--font-number=2",
            f"--text-file={chars}", f"--output-file={OUT / 'NotoSansCJKsc-Regular.otf'}",
            "--no-hinting",
        ],
        check=True,
    )  # fmt: skip
    chars.unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
