"""The documents an umpire or an order-of-battle editor looks things up in, inside the app:
every reading of the rules, the scenario, orders and battle set-up formats, the historical
defaults, the ship data review and what each team may know (the Markdown files of
``docs/``)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QTextBrowser, QVBoxLayout, QWidget

from campaign import paths

#: menu text → file in docs/
DOCUMENTS: dict[str, str] = {
    "&User guide": "user-guide.md",
    "Readings of the &rules": "rules-notes.md",
    "&Scenario files": "scenario-format.md",
    "&Orders files": "orders-format.md",
    "&Battle set-up files": "battle-setups.md",
    "&Historical defaults": "historical-defaults.md",
    "Ship &data review": "ship-data-review.md",
    "What each &team may know": "team-views.md",
    "The &game file and its seal": "game-file.md",
    "The &computer opponent": "computer-opponent.md",
}


class DocumentWindow(QDialog):
    """One document, rendered, searchable with the browser's own find (Ctrl+F is the
    map's; the text is selectable and links open in the same window)."""

    def __init__(self, title: str, file: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Sea Control — {title.replace('&', '')}")
        self.resize(900, 700)
        layout = QVBoxLayout(self)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        # the guide's pictures (images/…) and links to the other documents are relative
        self.browser.setSearchPaths([str(paths.docs_dir())])
        path = paths.docs_dir() / file
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            text = f"# {title.replace('&', '')}\n\nThe document {path} cannot be read ({exc})."
        self.browser.setMarkdown(text)
        layout.addWidget(self.browser)
