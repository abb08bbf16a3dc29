"""Time controls through the fake Discord: ``/challenge … clock:casual`` gives a backgammon match
a delay per move and a reserve; the board shows both players' reserves; a turn played within
the delay costs nothing; the clock is stored to the second and a restarted bot finds it where it
was; a player out of reserve loses the match, decided by the clock sweep.

The test does not wait three minutes for a reserve to run out: it moves the bot's clock
(``FakeDiscord.advance``) while the bot is down (the bot being down that long is exactly what
the restart must survive)."""

from __future__ import annotations

import asyncio
import json
import re

from bot import storage as store
from bot.engines import backgammon
from bot.engines.common import EndReason
from bot.games import backgammon_menus
from bot.games.menu import ROLL
from renderers.backgammon import result_banner
from tests.driver.boards import Board, as_shown
from tests.driver.bots import BotEnv, module_bot, module_marks, start_and_wait_ready
from tests.driver.members import answer, ephemeral_text, parse_link, wait_ephemeral
from tests.driver.player import Table
from tests.driver.timeouts import STEP_TIMEOUT

pytestmark = module_marks(timeout=180, process=True)

env = module_bot("time-controls", {"CLOCK_SWEEP_SECONDS": "0.5"}, process=True)


async def stored_clock(env: BotEnv, game_id: str) -> tuple[dict[str, object], float | None]:
    row = await store.load_game(await env.db(), game_id)
    assert row is not None
    return json.loads(row.state_json)["clock"], row.turn_deadline


# Reads of the stored game, 50 ms apart, before a clock that never started fails the test.
SHOWN_POLLS = 600


async def shown_clock(env: BotEnv, game_id: str) -> tuple[dict[str, object], float | None]:
    """The stored clock once the bot has recorded its board as shown: it starts the turn's
    clock after the board's edit returns, so a reader who saw the board may be first."""
    for _ in range(SHOWN_POLLS):
        clock, deadline = await stored_clock(env, game_id)
        if clock.get("shown") is True:
            return clock, deadline
        await asyncio.sleep(0.05)
    raise AssertionError(f"the clock of game {game_id} never started: {clock}")


def next_token(board: Board) -> str:
    for wanted in (backgammon_menus.CONFIRM, ROLL):
        if wanted in board.tokens:
            return wanted
    backwards = (backgammon_menus.BACK, backgammon_menus.UNDO)
    return next(t for t in board.tokens if board.is_game_action(t) and t not in backwards)


async def test_a_casual_match_shows_its_clock_survives_a_restart_and_is_lost_on_time(
    env: BotEnv,
) -> None:
    ann, ben = await env.member("ann-clock"), await env.member("ben-clock")
    channel = await env.channel("casual")
    refused = await env.fake.slash(
        ann, "challenge", {"game": "ur", "opponent": ben, "clock": "casual"}, channel=channel
    )
    assert "Time controls are for" in await wait_ephemeral(env, refused)

    before = env.fake.wall_time()
    command = await env.fake.slash(
        ann,
        "challenge",
        {"game": "backgammon", "opponent": ben, "clock": "casual", "points": 1},
        channel=channel,
    )
    response = await answer(env, command)
    assert response.original is not None, ephemeral_text(env, command)
    invitation = response.original
    assert "casual clock: 15 s per move + 3:00 reserve" in invitation.text
    accept = next(c for c in invitation.custom_ids() if c.endswith(":accept"))
    await answer(env, await env.fake.click(ben, invitation, accept))
    await env.fake.wait_for(
        lambda: "Challenge accepted" in env.fake.message(invitation).text, STEP_TIMEOUT
    )
    table = Table(env, parse_link(env.fake.message(invitation).text)[0], [ann, ben])
    board = await table.wait_turn()
    assert "Reserve:" in board.message.text and "3:00" in board.message.text
    # The turn's clock started when its board was shown, not when the game was stored.
    clock, deadline = await shown_clock(env, board.game_id)
    started = float(clock["started"])  # type: ignore[arg-type]
    assert before <= started <= env.fake.wall_time()
    assert deadline == started + 15 + 180

    # A turn played within the delay costs nothing; the next player's clock starts.
    mover = table.player_on_turn(board)
    while table.player_on_turn(board) is mover and not board.finished:
        await table.click(board, next_token(board))
        board = await table.wait_turn(board.version)
    clock, deadline = await stored_clock(env, board.game_id)
    assert clock["reserves"] == [180.0, 180.0]

    # The bot is down; the stored clock is all there is.
    await env.bot.kill()
    clock, deadline = await stored_clock(env, board.game_id)
    assert deadline is not None
    assert clock["seat"] is not None
    idle = ben if table.player_on_turn(board) is ben else ann
    row = await store.load_game(await env.db(), board.game_id)
    assert row is not None
    # The player on turn has been thinking for 200 s: past 15 s delay + 180 s.
    env.fake.advance(200)
    await start_and_wait_ready(env.bot)

    final = await table.wait_turn(board.version)
    assert final.finished, final.message.text
    active = await store.active_games_for_user(await env.db(), ann.id)
    assert board.game_id not in [g.id for g in active], "the match is over"
    results = {r.user_id: r for r in await store.results_of_game(await env.db(), board.game_id)}
    assert results[idle.id].reason == "timeout"
    winner = ann if idle is ben else ben
    assert results[winner.id].points > 0
    # Told as a loss on time, never as a resignation: the move line, the result and the
    # picture all take the reason from the game's outcome.
    text = as_shown(final.message.text)
    assert f"{idle.name} (" in text and "ran out of time and lost" in text, text
    assert re.search(rf"🏁 {idle.name} \(\w+\) ran out of time: {winner.name} \(\w+\) wins", text)
    assert "resign" not in text.lower(), text
    log = await store.load_actions(await env.db(), board.game_id)
    seat = next(s.seat for s in row.seats if s.user_id == idle.id)
    assert (log[-1].kind, log[-1].notation) == ("timeout", f"timeout {seat}")
    ended = await store.load_game(await env.db(), board.game_id)
    assert ended is not None
    state = backgammon.load_state(json.loads(ended.state_json)["engine"])
    assert state.outcome is not None and state.outcome.reason == EndReason.TIMEOUT
    names = [s.display_name for s in ended.seats]
    assert result_banner(state, names)[:2] == [
        f"{winner.name} wins",
        f"{idle.name} ran out of time",
    ]
