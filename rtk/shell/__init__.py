"""The shell lexer: a command line read the way bash would (words after quote removal, escapes,
expansions and substitutions, operators, redirects, pipelines, groups), with source offsets so the
rewrite engine can splice `rtk ` into the original text. Sans-I/O, standard library only, no `re`
or `typing` at import; imports nothing of rtk.
"""
