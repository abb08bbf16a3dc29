"""Provably fair dice: every roll of a game comes from a secret seed fixed at the start.

The scheme, so anyone can check a finished game by hand (the README repeats it):

* At creation the bot draws a 32-byte secret ``seed`` (shown as 64 hex digits) and publishes
  ``SHA-256(seed_hex)`` before the first roll. The seed is revealed when the game ends.
* Roll number ``n`` (1, 2, 3, ... counting every roll of the game, opening rolls included)
  reads a bit stream: block ``b`` (0, 1, ...) of it is
  ``HMAC-SHA256(key=seed_hex, message=f"{game_id}:{n}:{b}")``, bytes in order, each byte
  read from its most significant bit down.
* A six-sided die takes 3 bits as a number 0-7; 6 and 7 are thrown away and 3 more bits
  taken; otherwise the die shows the number + 1. An Ur die (0 or 1) takes 2 bits as a number
  0-3; 2 and 3 are thrown away; otherwise that number is the die.

The engines draw dice through ``random.Random.randint``, which CPython implements with exactly
this rejection sampling over ``getrandbits``; :class:`RollStream` supplies those bits.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets


def new_seed() -> str:
    return secrets.token_hex(32)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


class RollStream(random.Random):
    """A ``random.Random`` whose bits come from the game's HMAC stream for one roll.

    A stream is made for every roll, so it is made cheaply: the unread bits are kept as one
    integer, and the Mersenne Twister state ``random.Random`` would seed (624 words, more
    work than the roll itself) is never used, so it is never seeded."""

    def __init__(self, seed: str, game_id: str, roll_number: int) -> None:
        self._key = seed.encode()
        self._prefix = f"{game_id}:{roll_number}:"
        self._block = 0
        self._unread = 0  # the stream's bits not read yet, the next one the highest
        self._left = 0  # how many bits ``_unread`` holds
        super().__init__()

    def seed(self, *args: object, **kwargs: object) -> None:
        """No seeding: the bits come from the HMAC stream alone."""

    def getrandbits(self, k: int, /) -> int:
        while self._left < k:
            block = f"{self._prefix}{self._block}".encode()
            digest = hmac.digest(self._key, block, "sha256")
            self._block += 1
            self._unread = (self._unread << 256) | int.from_bytes(digest, "big")
            self._left += 256
        self._left -= k
        value = self._unread >> self._left
        self._unread &= (1 << self._left) - 1
        return value

    def random(self) -> float:  # the engines must never need it: dice are integers
        raise RuntimeError("dice streams only give integers")


def roll_stream(seed: str, game_id: str, roll_number: int) -> random.Random:
    return RollStream(seed, game_id, roll_number)
