"""The contract search as the package presents it (``docs/search.md``).

Most search functions come straight from the engine (``liverpool._core``). This
module adds what is only naming:

- :func:`all_go_downs` returns a :class:`GoDowns` list that says whether its
  ``limit`` cut some go-downs off (``truncated``);
- :func:`best_go_down_points_batch` is the old, deprecated name of
  :func:`~liverpool.best_go_down_points_left_batch` (the points are those *left in
  hand* after the best go-down).

Conventions of every result: card ids are ``suit * 13 + rank - 1`` (suits ♠ ♥ ♦ ♣,
A = 1 … K = 13, the joker 52) and lists of cards left in hand are in that order;
a run's cards are listed low to high, each joker where it stands, and its ``span``
uses positions A (low) = 1 … K = 13, A (high) = 14; a go-down's melds are its sets,
then its runs, each group sorted by card-id tuple.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING

from liverpool import _core

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from liverpool._core import Card, GoDown, RuleSet

__all__ = ["GoDowns", "all_go_downs", "best_go_down_points_batch"]


class GoDowns(list["GoDown"]):
    """The go-downs of :func:`all_go_downs`, best first, with how the search ended.

    A plain ``list`` of :class:`~liverpool.GoDown` (it compares equal to a list of
    the same go-downs) plus two attributes:

    - ``truncated``: ``True`` when the hand has more distinct go-downs than
      ``limit`` let through (ask again with a larger ``limit`` to see them);
    - ``limit``: the limit the search ran with.
    """

    truncated: bool
    limit: int

    def __init__(self, go_downs: Iterable[GoDown] = (), *, truncated: bool = False, limit: int = 1000) -> None:
        super().__init__(go_downs)
        self.truncated = truncated
        self.limit = limit

    def __repr__(self) -> str:
        return f"GoDowns({list.__repr__(self)}, truncated={self.truncated})"


def all_go_downs(
    hand: Iterable[Card | str | int] | str,
    round: int,
    rules: RuleSet | None = None,
    limit: int | None = 1000,
) -> GoDowns:
    """Every distinct go-down of ``hand`` for ``round``, best first, at most ``limit``.

    The order is :func:`~liverpool.best_go_down`'s: fewest points left in hand, then
    the smallest card ids left, then the smallest melds list. The result is a
    :class:`GoDowns` list whose ``truncated`` says whether more go-downs exist.

    >>> from liverpool import all_go_downs
    >>> found = all_go_downs("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", round=1, limit=3)
    >>> [g.points_left for g in found], found.truncated
    ([7, 7, 7], True)
    >>> all_go_downs("7♠ 7♥ 7♦ 7♣ 9♠ 9♥ 9♦", round=1).truncated
    False
    """
    found, truncated = _core.all_go_downs_limited(hand, round, rules, limit)
    return GoDowns(found, truncated=truncated, limit=1000 if limit is None else limit)


def best_go_down_points_batch(
    hands: npt.NDArray[np.uint8], round: int, rules: RuleSet | None = None, threads: int | None = None
) -> npt.NDArray[np.int32]:
    """Deprecated: the old name of :func:`~liverpool.best_go_down_points_left_batch`.

    The numbers are the points *left in hand* after the best go-down (``-1``
    without one), which the new name says.
    """
    warnings.warn(
        "best_go_down_points_batch is renamed best_go_down_points_left_batch "
        "(the points are those left in hand)",
        DeprecationWarning,
        stacklevel=2,
    )
    return _core.best_go_down_points_left_batch(hands, round, rules, threads)
