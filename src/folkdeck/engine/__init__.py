"""The engine protocol, errors, options, seating, records and the game registry."""
