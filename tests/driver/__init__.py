"""The end-to-end test driver: the real bot on the fake Discord (``sandbox/``), played the way
people play it, with the button ids and tokens taken from the bot's own definitions.

- :mod:`tests.driver.bots`: a bot's life in a test (``running_bot``, ``module_bot``, restart,
  its log), in the test's process (:mod:`~tests.driver.in_process`) or as ``python -m bot``
  (:mod:`~tests.driver.process`);
- :mod:`tests.driver.members`: members who slash and click, and the bot's answers to them;
- :mod:`tests.driver.boards`: a board message read as a player reads it;
- :mod:`tests.driver.tokens`: which buttons are moves, rolls and cube decisions (the bot's
  menus' tokens);
- :mod:`tests.driver.player`: :class:`~tests.driver.player.Table`, one game played by clicks;
- :mod:`tests.driver.starts`: games begun by /play and /challenge;
- :mod:`tests.driver.stored` and :mod:`tests.driver.log_check`: the database read back, and
  the action log compared with the clicks;
- :mod:`tests.driver.reviews`, :mod:`tests.driver.forging`, :mod:`tests.driver.traffic`,
  :mod:`tests.driver.tournaments`, :mod:`tests.driver.shards`: review pages, forged and stale
  buttons, the bot's REST traffic, tournaments, and bots sharing a PostgreSQL database.
"""
