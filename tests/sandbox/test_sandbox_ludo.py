"""A Ludo game in the sandbox page: two members (one person switching between them) and two AI
seats, played to the end; the stored game has all four seats and a log that replays."""

from __future__ import annotations

import pytest

from bot import storage as store
from tests.driver.tokens import click_kind
from tests.sandbox.conftest import PageFactory
from tests.sandbox.sandbox_process import SandboxProcess
from tests.sandbox.stored import stored_game

pytestmark = [pytest.mark.processes, pytest.mark.timeout(300)]


def test_ludo_with_two_members_and_two_ai_seats_to_the_end(
    open_page: PageFactory, sandbox: SandboxProcess
) -> None:
    page = open_page()
    page.play_as("Dan")
    page.open_channel("games")
    page.follow_link(page.challenge_accepted("Dan", "Ada", "ludo"))

    last, clicks = page.play(["Dan", "Ada"])
    print(f"Ludo game {last.game}: {len(clicks)} clicks in the page")

    assert last.finished
    row, decisions = stored_game(sandbox.database, last.game)
    assert row.status == store.GameStatus.FINISHED
    ids = {m["name"]: int(m["id"]) for m in sandbox.state()["members"]}
    assert sorted(s.user_id is None for s in row.seats) == [False, False, True, True]
    assert {s.user_id for s in row.seats} - {None} == {ids["Dan"], ids["Ada"]}
    # Clicks on a die only choose it (a draft); rolls and token moves are logged, in order.
    logged = [(ids[name], click_kind(token)) for name, token in clicks if click_kind(token)]
    assert [(d.user_id, d.kind) for d in decisions] == logged
