"""Small typed helpers for :class:`QTableWidget` shared by the panels."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget, QTableWidgetItem


def cell(table: QTableWidget, row: int, column: int = 0) -> QTableWidgetItem:
    """The item at ``row``, ``column``; every cell our tables read was filled when built."""
    item = table.item(row, column)
    if item is None:
        raise LookupError(f"{type(table).__name__} has no item at row {row}, column {column}")
    return item
