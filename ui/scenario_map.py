"""The scenario editor's map: the draft on the sea chart, and tools that edit it by clicks.

:class:`ScenarioChart` is the game's :class:`~ui.mapview.SeaChart` over a
:class:`DraftSession` — a session that holds no game, only the scenario as far as the map
can draw it (:meth:`campaign.scenario_edit.Draft.drawable`). The chart's own look and
picking serve unchanged; this module adds the tools:

* **New base** and **Move base**: a click on a sea area, or on land by the coast, gives a
  point and the sea area it lies in (the nearest water, for a point on land);
* **Draw route**: a click on a base starts a merchant route, clicks on sea areas take it
  along the graph (only an area next to the last one is accepted; the areas it may take
  next are shaded), a click on a base ends it. Its moves and length class are shown as it
  grows; Backspace steps back, Esc stops.

The tools report what the user did with signals; the editor turns that into undoable
edits.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsView, QWidget

from campaign.events import Event
from campaign.orders import Orders
from campaign.scenario import Scenario
from campaign.scenario_edit import locate
from campaign.state import GameState, initial_state
from campaign.world import World, length_class

from . import style
from .mapview import DEG, SeaChart, near_lon
from .session import GameSession

SELECT, NEW_BASE, MOVE_BASE, ROUTE = "select", "new_base", "move_base", "route"
TOOLS = (SELECT, NEW_BASE, MOVE_BASE, ROUTE)
#: what each length class does to a route's lift (002 "Supply Effectiveness")
LIFT_WORDS = {"Short": "double lift", "Med": "standard lift", "Long": "half lift"}


class DraftSession(GameSession):
    """A session with no game: the chart's view of a scenario being edited."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._shown: Scenario | None = None
        self._start: GameState | None = None

    @property
    def is_open(self) -> bool:
        return self._shown is not None

    @property
    def scenario(self) -> Scenario:
        if self._shown is None:
            raise RuntimeError("no scenario is shown")
        return self._shown

    @property
    def state(self) -> GameState:
        if self._start is None:
            self._start = initial_state(self.scenario)
        return self._start

    def all_orders(self) -> dict[str, Orders]:
        return {}

    def events(self, nation: str | None = None, turn: int | None = None) -> list[Event]:
        return []  # a scenario has no history: nothing to mark on the chart

    def show(self, scenario: Scenario | None) -> None:
        """Show another scenario (the chart rebuilds)."""
        self._shown, self._start = scenario, None
        self.gameChanged.emit()

    def refresh(self, scenario: Scenario) -> None:
        """The same places and routes with other holders, tonnage, units, air…: the chart
        recolours what it drew (much quicker than drawing it again)."""
        self._shown, self._start = scenario, None
        self.stateChanged.emit()


def layout_of(scenario: Scenario) -> tuple[object, ...]:
    """What the chart draws from a scenario's rows: its board, its places where they are
    and what they are called, its routes and the way they run. A change to anything else
    only recolours the chart (:meth:`DraftSession.refresh`)."""
    places = tuple(
        (b["id"], b["name"], b["kind"], b["lon"], b["lat"], b["sea_area"])
        for b in scenario.rows("bases")
    )
    routes = tuple(
        (r["id"], r["serial"], r["origin"], r["destination"], tuple(r["via"]))
        for r in scenario.rows("routes")
    )
    return (id(scenario.world), places, routes)


class ScenarioChart(SeaChart):
    """The sea chart with the scenario editor's tools."""

    #: a click with New base or Move base: (lon, lat, sea area, the point is in that area)
    placed = Signal(float, float, str, bool)
    #: Move base: a base was clicked to be moved next
    basePicked = Signal(str)
    #: a finished route: (origin base, destination base, the sea areas it runs through)
    routeDrawn = Signal(str, str, list)
    #: what the tool has to say (for the status line)
    message = Signal(str)

    def __init__(self, session: DraftSession, parent: QWidget | None = None) -> None:
        self.draft_session = session
        self.tool = SELECT
        self._click: QPoint | None = None
        self._origin: str | None = None
        self._path: list[str] = []
        self._trail: QGraphicsPathItem | None = None
        super().__init__(session, parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    # -- the tools ---------------------------------------------------------------------------
    def set_tool(self, tool: str) -> None:
        self.cancel_route()
        self.tool = tool
        self.setCursor(Qt.CursorShape.ArrowCursor if tool == SELECT else Qt.CursorShape.CrossCursor)
        self.message.emit(
            {
                SELECT: "",
                NEW_BASE: "New base: click a sea area or a point on the coast",
                MOVE_BASE: "Move base: click a base, then the point it moves to",
                ROUTE: "Draw route: click the base it starts from",
            }[tool]
        )

    @property
    def drawing(self) -> tuple[str | None, list[str]]:
        """The route being drawn: its origin and the sea areas so far."""
        return self._origin, list(self._path)

    def cancel_route(self) -> None:
        self._origin, self._path = None, []
        self._show_trail()
        self.clear_range()

    def show_reach(self, base: str, reach: int) -> set[str]:
        """A record's base selected and the sea areas within ``reach`` of it shaded (a
        unit's naval range, an Air Point's air range). Returns the areas shaded."""
        if not self.session.is_open or base not in self.base_points:
            self.clear_range()
            return set()
        board = self.session.board()
        areas = board.areas_within(base, reach) if reach >= 0 else set()
        self.shade_areas(areas)
        self.set_selection("base", base)
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        rect = self._areas_rect(areas)
        if not rect.isEmpty():
            port = self.viewport().rect()
            fits = min(port.width() / rect.width(), port.height() / rect.height())
            if fits > 1.4 * self.transform().m11() or not seen.contains(rect):
                self.fit_areas(areas)  # the range is what the user asked to see
                return areas
        if not seen.contains(self.base_points[base]):
            self.centerOn(self.base_points[base])
        return areas

    def _areas_rect(self, areas: set[str]) -> QRectF:
        """The scene rectangle round these sea areas (one that runs round the world left
        out: it would fill the chart)."""
        rect = QRectF()
        for area in areas:
            item = self.areas.get(area)
            if item is not None and item.boundingRect().width() < 180 * DEG:
                rect = rect.united(item.sceneBoundingRect())
        return rect

    def fit_areas(self, areas: set[str]) -> None:
        """Show these sea areas whole."""
        rect = self._areas_rect(areas)
        if not rect.isEmpty():
            self.fitInView(rect.adjusted(-DEG, -DEG, DEG, DEG), Qt.AspectRatioMode.KeepAspectRatio)
            self._zoom_changed()

    def viewport_point(self, lon: float, lat: float) -> QPoint:
        """Where a point of the earth is in the viewport (for tests and the tools)."""
        x = near_lon(lon, self.mapToScene(self.viewport().rect().center()).x() / DEG)
        return self.mapFromScene(QPointF(x * DEG, -lat * DEG))

    def lonlat(self, pos: QPoint) -> tuple[float, float]:
        """The longitude (−180 to 180) and latitude at a viewport point."""
        scene = self.mapToScene(pos)
        lon = (scene.x() / DEG + 180.0) % 360.0 - 180.0
        return lon, max(-90.0, min(90.0, -scene.y() / DEG))

    def _world(self) -> World | None:
        return self.session.scenario.world if self.session.is_open else None

    def _tool_click(self, pos: QPoint) -> None:
        world = self._world()
        if world is None:
            return
        hit = self.pick(pos)
        base = hit[1] if hit is not None and hit[0] == "base" else None
        lon, lat = self.lonlat(pos)
        if self.tool == ROUTE:
            if base is not None:
                self._route_base(world, base)
            else:
                area, inside = locate(world, lon, lat)
                if inside:
                    self._route_area(world, area)
            return
        if self.tool == MOVE_BASE and base is not None:
            self.set_selection("base", base)
            self.basePicked.emit(base)
            return
        area, inside = locate(world, lon, lat)
        if area:
            self.placed.emit(round(lon, 2), round(lat, 2), area, inside)

    def _route_base(self, world: World, base: str) -> None:
        area = str(self.session.board().bases[base]["sea_area"])
        if self._origin is None:
            self._origin, self._path = base, [area]
            self._route_changed(world)
            return
        last = self._path[-1]
        if area != last and area not in world.neighbours(last):
            name = self.session.board().place_name(base)
            self.message.emit(
                f"{name} is not in or next to {world.areas[last].name}: draw the route to "
                "its sea area first"
            )
            return
        path = self._path if area == last else [*self._path, area]
        origin = self._origin
        self.cancel_route()
        self.routeDrawn.emit(origin, base, path)

    def _route_area(self, world: World, area: str) -> None:
        if self._origin is None:
            self.message.emit("Draw route: a route starts at a base — click one first")
            return
        last = self._path[-1]
        if area == last:
            return
        if len(self._path) > 1 and area == self._path[-2]:
            self._path.pop()  # clicking the area before steps back
        elif area in world.neighbours(last):
            self._path.append(area)
        else:
            self.message.emit(
                f"{world.areas[area].name} is not next to {world.areas[last].name}: a route "
                "runs from one sea area to the next"
            )
            return
        self._route_changed(world)

    def _route_changed(self, world: World) -> None:
        moves = len(self._path) - 1
        length = length_class(moves).label
        origin = self.session.board().place_name(self._origin or "")
        self.message.emit(
            f"Route from {origin}: {moves} move{'s' if moves != 1 else ''} — {length} "
            f"({LIFT_WORDS[length]}). Click the next sea area or the destination base; "
            "Backspace steps back, Esc stops"
        )
        self.shade_areas(set(world.neighbours(self._path[-1])))
        self._show_trail()

    def _show_trail(self) -> None:
        """The route being drawn, as a bold dashed line from its base through its areas."""
        if self._trail is None:
            return
        path = QPainterPath()
        if self._origin is not None and self._origin in self.base_points:
            points = [self.base_points[self._origin]]
            points += [self.label_points[a] for a in self._path if a in self.label_points]
            x = points[0].x()
            path.moveTo(points[0])
            for p in points[1:]:
                x = near_lon(p.x() / DEG, x / DEG) * DEG  # never the long way round
                path.lineTo(QPointF(x, p.y()))
        self._trail.setPath(path)

    # -- the chart ---------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Rebuild for the draft as it stands, keeping the view where it was (an edit must
        not throw the user back to the whole world)."""
        had_view = bool(self.areas)
        transform = self.transform()
        centre = self.mapToScene(self.viewport().rect().center())
        selection = self.selection
        super().rebuild()
        self._trail = QGraphicsPathItem()
        pen = QPen(style.SELECTION.darker(130), 3.0, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self._trail.setPen(pen)
        self._trail.setZValue(30)
        self.scene().addItem(self._trail)
        if had_view and self.areas:
            self.setTransform(transform)
            self.centerOn(centre)
            self._zoom_changed()
        if selection is not None:
            self.set_selection(*selection)
        if self._origin is not None and self._origin not in self.base_points:
            self.cancel_route()
        world = self._world()
        if world is not None and self._origin is not None:
            self._route_changed(world)

    # -- Qt events -------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._click = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        press, self._click = self._click, None
        pos = event.position().toPoint()
        is_click = (
            press is not None
            and event.button() == Qt.MouseButton.LeftButton
            and (pos - press).manhattanLength() <= 4
        )
        if self.tool != SELECT and is_click:
            QGraphicsView.mouseReleaseEvent(self, event)  # ends the hand-drag only
            self._tool_click(pos)
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.tool == ROUTE and self._origin is not None:
            world = self._world()
            if event.key() == Qt.Key.Key_Escape:
                self.cancel_route()
                self.message.emit("Draw route: stopped; click a base to start another")
                return
            if event.key() == Qt.Key.Key_Backspace and world is not None:
                if len(self._path) > 1:
                    self._path.pop()
                    self._route_changed(world)
                else:
                    self.cancel_route()
                    self.message.emit("Draw route: click the base it starts from")
                return
        super().keyPressEvent(event)
