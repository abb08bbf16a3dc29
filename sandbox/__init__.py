"""``tabula sandbox``: a local Discord emulator (``fake_*``), the page that shows it as a person
sees Discord (``page_api``, ``page_view``, ``static/``), and the runner that starts it with the
real bot (``runner``). The end-to-end tests run the bot against the same emulator."""
