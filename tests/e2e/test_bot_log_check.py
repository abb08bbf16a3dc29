"""The comparison of clicks with the stored log, which the end-to-end tests rely on, catches a
doubled action, a lost one and a wrong piece, and settles clicks the bot died on."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sandbox.fake_model import Interaction, InteractionType
from tests.driver.log_check import Decision, check_log_matches_clicks
from tests.driver.player import Click

pytestmark = pytest.mark.e2e

ALICE = 1


def click(version: int, token: str, *, in_flight: bool = False, refused: bool = False) -> Click:
    interaction = Interaction(
        id=version,
        token="t",
        type=InteractionType.MESSAGE_COMPONENT,
        user_id=ALICE,
        guild_id=0,
        channel_id=0,
        payload={},
        created=0.0,
    )
    return Click(
        ALICE,
        "0123abcd",
        version,
        token,
        interaction,
        refusal="That board is out of date" if refused else None,
        in_flight=in_flight,
    )


def roll(seq: int) -> Decision:
    return Decision(seq, ALICE, "roll", "roll 1-0-1-0", SimpleNamespace())


def move(seq: int, source: int) -> Decision:
    return Decision(seq, ALICE, "move", f"{source}-{source + 2}", SimpleNamespace(source=source))


def test_every_accepted_click_once_in_order() -> None:
    clicks = [click(0, "roll"), click(1, "m4"), click(3, "roll"), click(3, "roll", refused=True)]
    assert check_log_matches_clicks(clicks, [roll(1), move(2, 4), roll(4)]) == clicks[:3]


@pytest.mark.parametrize(
    "log",
    [
        [roll(1), roll(2), move(3, 4)],  # a click stored twice
        [roll(1)],  # an accepted click lost
        [roll(1), move(2, 6)],  # another piece moved than the one clicked
        [move(1, 4), roll(2)],  # out of order
    ],
)
def test_a_log_that_disagrees_is_caught(log: list[Decision]) -> None:
    with pytest.raises(AssertionError):
        check_log_matches_clicks([click(0, "roll"), click(1, "m4")], log)


def test_a_click_the_bot_died_on_and_lost_must_be_absent() -> None:
    # The player clicked again on the same version: the first click was never stored.
    clicks = [click(5, "roll", in_flight=True), click(5, "roll")]
    assert check_log_matches_clicks(clicks, [roll(9)]) == [clicks[1]]
    with pytest.raises(AssertionError):
        check_log_matches_clicks(clicks, [roll(9), roll(10)])


def test_a_click_the_bot_died_on_and_stored_must_be_present() -> None:
    # The next click was made on a newer version: the first one was stored.
    clicks = [click(5, "roll", in_flight=True), click(6, "m2")]
    assert check_log_matches_clicks(clicks, [roll(9), move(10, 2)]) == clicks
    with pytest.raises(AssertionError):
        check_log_matches_clicks(clicks, [move(10, 2)])
