"""Pure rules engines: standard library only, no I/O, no discord, no Pillow.

Each engine module (``ur``, ``ludo``, ``backgammon``) fulfils :class:`common.Rules` at module
level. Engines know nothing of the bot: a game's manifest in ``bot.games`` names its engine,
and the registry there finds a game's rules by the game's name.
"""
