"""Chancery's Diplomacy engine for Python.

The names follow the ``diplomacy`` package (``Game``, ``set_orders``, ``process``,
``get_state``, ``get_all_possible_orders``, the saved-game format), for Standard, 1936,
1648, Original 1958 and any ``.var`` variant file. Judging runs in Rust without the
interpreter's lock: ``process_many`` judges many games on every core.
"""

from ._chancery import (
    BidError,
    ChanceryError,
    Game,
    OrderError,
    VariantError,
    bot_decision,
    bot_orders,
    process_many,
    variants,
)

__all__ = [
    "BidError",
    "ChanceryError",
    "Game",
    "OrderError",
    "VariantError",
    "bot_decision",
    "bot_orders",
    "process_many",
    "variants",
]
