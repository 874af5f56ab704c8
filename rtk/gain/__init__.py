"""`rtk gain`: reports over the history database and their text, JSON, CSV and graph renderings.
May import `rtk.track` (history, tokens) and `paths`; nothing imports it but the cli.
"""
