"""The words every layer above the engines shares: refusals (catalogue keys and the errors
that carry them), the options a game is stored with, and the review's move labels. Leaves:
they import nothing from the bot, so game manifests (``bot.games``) and the service both use
them without the manifests reaching up into the service."""
