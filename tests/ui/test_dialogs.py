"""Where the rules ask a person: the step-loss dialog and dice typed in by the umpire."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox

from campaign.losses import Casualty, LossRequest
from ui.dialogs import LossDialog
from ui.session import GameSession

REQUEST = LossRequest(
    "Allies in the Coral Sea",
    ("usa",),
    2,
    (
        Casualty("cv", "usa", "unit", "Lexington & Yorktown", "fleet_carrier", 2, 11, 0, 0),
        Casualty("ca", "usa", "unit", "Chicago, Astoria", "heavy", 2, 5, 2, 0),
    ),
    "battle in the Coral Sea",
)


def test_the_loss_dialog_starts_from_the_default_and_needs_the_exact_steps(
    qtbot: object,
) -> None:
    dialog = LossDialog(REQUEST)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    # the default owner spreads the damage before sinking anything
    assert sorted(dialog.chosen()) == ["ca", "cv"]
    assert ok.isEnabled()
    dialog.spins[0].setValue(0)
    assert not ok.isEnabled() and "1 of 2" in dialog.status.text()
    dialog.spins[1].setValue(2)  # the owner keeps the carriers: the cruisers are sunk
    assert ok.isEnabled() and dialog.chosen() == ["ca", "ca"]


def test_dice_typed_in_by_the_umpire_are_used_and_logged(qtbot: object) -> None:
    from campaign import paths
    from campaign.orders import load_orders

    session = GameSession()
    session.new_game()
    for nation in ("germany", "uk"):
        text = (paths.scenario_dir("1942") / "sample-orders" / f"{nation}.json").read_text()
        assert session.set_orders(nation, load_orders(text, nation)) == []
    asked: list[str] = []

    def umpire(purpose: str, sides: int) -> int:
        asked.append(purpose)
        return 6 if "interdictor" in purpose else 1

    session.manual_dice = umpire
    session.resolve(9)
    rolls = session.require().dice_log()
    assert asked and all(r.source == "manual" for r in rolls)
    assert [r.purpose for r in rolls] == asked
    combats = [e for e in session.events() if e.kind == "merchant_combat"]
    assert combats and all(e.data["attack_roll"] == 6 for e in combats)
    session.close()
