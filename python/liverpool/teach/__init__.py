"""For learners: the game shown to a person, in their language.

The modules here draw and narrate what the engine (:mod:`liverpool`) decides; none of
them decides a rule.

- :mod:`liverpool.teach.display`: cards, melds, deals and positions as HTML/SVG and text.
- :mod:`liverpool.teach.narration`: an event or a refusal as a sentence a player reads.
- :mod:`liverpool.teach.game_loop`: one game between a person and bots, step by step.
- :mod:`liverpool.teach.play`: ``liverpool play``, that game in a terminal.
- :mod:`liverpool.teach.explore`: the numbers the explore notebook plots (simulations, odds).
- :mod:`liverpool.teach.widgets`: the notebooks' widgets (card table, rules tour, explorer).
- ``notebooks/``: the generated teaching notebooks the wheel ships.

Nothing is imported here: ``import liverpool.teach.display`` loads only what it needs.
"""
