"""The deck's numbers, written once: the compiled kernel (``core.kernel``) and the card objects
(``game.cards``) both read them from here.

Plain ints with no import, so the card layer takes them without loading numpy or numba; numba
reads module-level ints as compile-time constants, so the kernel's compiled code sees them so too.
A card *type* is ``colour * RANKS_PER_COLOR + rank``.
"""

MAX_COLORS = 6  # the six-colour game; the five-colour game plays the first five
RANKS_PER_COLOR = 10  # rank 0 the wager, ranks 1..9 the numbers 2..10 (number = rank + 1)
WAGER = 0  # the wager's rank
WAGER_COPIES = 3  # a colour's three wagers: three physical cards of one type
CARDS_PER_COLOR = RANKS_PER_COLOR - 1 + WAGER_COPIES  # 12: nine numbers and three wagers
