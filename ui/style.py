"""The app's look: a calm naval-chart palette, fonts and sizes shared by every view.

Nation colours come from the scenario (``nations.csv``); everything else is here so the
map, the panels and printed reports agree.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont

SEA = QColor("#dfeaf1")  # open water
SEA_AREA_BORDER = QColor("#9db4c8")
SEA_AREA_LABEL = QColor("#35556f")
LAND = QColor("#e9e3d1")  # one colour for all land: modern borders vanish
COAST = QColor("#a39b82")
ADJACENCY = QColor("#7f9bb3")
STRAIT = QColor("#b0483a")
ROUTE_WORKING = QColor("#2f6f4f")
ROUTE_CONTESTED = QColor("#c77d16")
ROUTE_CUT = QColor("#a33b3b")
SELECTION = QColor("#f2b632")
RANGE_SHADE = QColor(242, 182, 50, 70)
TEXT = QColor("#1d2b36")
MUTED = QColor("#5d6d7a")

#: step names shown in the turn bar (short enough for 1366 px)
STEP_SHORT = (
    "Supplies",
    "Production",
    "Transfers",
    "Tonnage",
    "Allocate",
    "Flags",
    "Cards",
    "Operations",
    "Merchant",
    "Repairs",
)


def ui_font(point_size: float = 9.5, bold: bool = False) -> QFont:
    font = QFont()
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def nation_colour(scenario_nations: dict[str, dict[str, object]], nation: str) -> QColor:
    row = scenario_nations.get(nation)
    return QColor(str(row["colour"])) if row else QColor("#777777")
