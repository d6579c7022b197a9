"""The engine protocol, errors, options, records and the game registry."""
