"""The dice scheme the README documents, re-implemented independently from its description."""

from __future__ import annotations

import collections
import hashlib
import hmac

from bot.engines.common import roll_binary, roll_d6
from bot.service.fair_dice import new_seed, roll_stream, seed_hash


def by_hand(seed: str, game_id: str, n: int, count: int, bits: int, limit: int) -> list[int]:
    """Read the HMAC stream as the README says: bits MSB first, reject values >= limit."""
    stream: list[int] = []
    block = 0
    values: list[int] = []
    while len(values) < count:
        while len(stream) < bits:
            digest = hmac.new(seed.encode(), f"{game_id}:{n}:{block}".encode(), hashlib.sha256)
            block += 1
            stream.extend((byte >> (7 - i)) & 1 for byte in digest.digest() for i in range(8))
        value = int("".join(map(str, stream[:bits])), 2)
        del stream[:bits]
        if value < limit:
            values.append(value)
    return values


def test_six_sided_dice_follow_the_documented_scheme() -> None:
    seed = "5e" * 32
    for n in range(1, 50):
        expected = [v + 1 for v in by_hand(seed, "abcd1234", n, 2, 3, 6)]
        assert list(roll_d6(roll_stream(seed, "abcd1234", n), 2)) == expected


def test_ur_dice_follow_the_documented_scheme() -> None:
    seed = "07" * 32
    for n in range(1, 50):
        expected = by_hand(seed, "g", n, 4, 2, 2)
        assert list(roll_binary(roll_stream(seed, "g", n), 4)) == expected


def test_a_long_roll_reads_on_into_the_next_blocks() -> None:
    """More dice than one block's 256 bits give (a Ludo table's rolls, or many rejections):
    the stream goes on with block 1, 2... in order, a read never skipping or repeating bits."""
    seed = "a3" * 32
    expected = [v + 1 for v in by_hand(seed, "long", 7, 200, 3, 6)]
    assert list(roll_d6(roll_stream(seed, "long", 7), 200)) == expected


def test_seed_hash_commits_to_the_seed() -> None:
    seed = new_seed()
    assert len(seed) == 64 and seed_hash(seed) == hashlib.sha256(seed.encode()).hexdigest()
    assert new_seed() != seed


def test_dice_are_uniform() -> None:
    seed = new_seed()
    counts = collections.Counter(roll_stream(seed, "x", n).randint(1, 6) for n in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts
