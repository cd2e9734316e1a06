"""Printed sheets for the game tables: team packs and hand-off sheets, as PDF.

Pure Python (fpdf2, and segno for the QR code), so the command line makes them on a
machine without a screen, and the app calls the same code.

Printed for a hall full of people with one black-and-white printer: A4 or Letter, text of
9 points or more, every table ruled, nothing told by colour alone (headings are bold on a
light grey, which photocopies). The PDF's own fonts (Helvetica, Courier) are in every PDF
reader, so the files are small and open anywhere; text is written in the Windows-1252
character set they cover, and the few signs outside it that the reports use (arrows,
minus signs) are spelt in plain characters (:func:`pdf_text`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import segno
from fpdf import FPDF
from fpdf.fonts import FontFace

PAPERS = {"a4": "A4", "letter": "Letter"}
MARGIN = 15.0  # mm
BODY_PT = 10.0
SMALL_PT = 9.0  # the smallest text printed
LINE = 5.0  # mm of a 10 pt line
HEAD_FILL = 225  # grey of a table heading (0 black … 255 white)

#: signs the reports use that the PDF's standard fonts lack, in plain characters
_PLAIN = {
    "→": "->",
    "←": "<-",
    "−": "-",
    "≤": "<=",
    "≥": ">=",
    "✓": "ok",
    "✗": "x",
    "×": "x",
}


def pdf_text(value: Any) -> str:
    """``value`` as text the PDF's standard fonts can print (Windows-1252): known signs
    spelt out, accented letters outside the set reduced to their base letter."""
    text = str(value)
    out = []
    for ch in text:
        ch = _PLAIN.get(ch, ch)
        try:
            ch.encode("cp1252")
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
            ch = base or "?"
        out.append(ch)
    return "".join(out)


class PaperError(ValueError):
    """A paper size this program does not print on."""


class Sheet(FPDF):
    """A printed document: running title at the top, a footer and page numbers at the
    bottom, and the few shapes the game's sheets are made of."""

    def __init__(self, paper: str, title: str, footer: str) -> None:
        if paper not in PAPERS:
            raise PaperError(f"'{paper}' is not a paper size; valid: {', '.join(PAPERS)}")
        super().__init__(orientation="P", unit="mm", format=PAPERS[paper])
        self.core_fonts_encoding = "windows-1252"
        self.running_title = pdf_text(title)
        self.running_footer = pdf_text(footer)
        self.set_margins(MARGIN, MARGIN + 4, MARGIN)
        self.set_auto_page_break(True, MARGIN + 6)
        self.set_title(self.running_title)
        self.set_creator("Sea Control")
        self.alias_nb_pages()
        self.set_font("Helvetica", size=BODY_PT)

    # -- every page ------------------------------------------------------------------------
    def header(self) -> None:
        self.set_font("Helvetica", size=SMALL_PT)
        self.set_xy(MARGIN, MARGIN - 4)
        self.cell(self.content_width, 4, self.running_title, align="L")
        self.line(MARGIN, MARGIN + 1, self.w - MARGIN, MARGIN + 1)
        self.set_xy(MARGIN, MARGIN + 4)
        self.set_font("Helvetica", size=BODY_PT)

    def footer(self) -> None:
        self.set_font("Helvetica", size=SMALL_PT)
        self.set_xy(MARGIN, self.h - MARGIN)
        self.cell(self.content_width * 0.75, 4, self.running_footer, align="L")
        self.set_xy(MARGIN, self.h - MARGIN)
        self.cell(self.content_width, 4, f"page {self.page_no()} of {{nb}}", align="R")

    @property
    def content_width(self) -> float:
        return float(self.w - 2 * MARGIN)

    @property
    def room(self) -> float:
        """Height left on this page above the bottom margin (mm)."""
        return float(self.page_break_trigger - self.y)

    def keep(self, height: float) -> None:
        """Start a new page unless ``height`` mm fit on this one."""
        if self.room < height:
            self.add_page()

    # -- text ------------------------------------------------------------------------------
    def title_line(self, text: str, size: float = 16) -> None:
        self.set_font("Helvetica", "B", size)
        self.multi_cell(0, size * 0.5, pdf_text(text), align="L", new_x="LMARGIN", new_y="NEXT")
        self.set_font("Helvetica", size=BODY_PT)
        self.ln(1.5)

    def heading(self, text: str, size: float = 12.5) -> None:
        """A section heading, kept with at least a few lines of what follows."""
        self.keep(size * 0.5 + 3 * LINE)
        self.ln(2)
        self.set_font("Helvetica", "B", size)
        self.multi_cell(0, size * 0.48, pdf_text(text), align="L", new_x="LMARGIN", new_y="NEXT")
        self.set_font("Helvetica", size=BODY_PT)
        self.ln(1)

    def para(self, text: str, size: float = BODY_PT, style: str = "", indent: float = 0) -> None:
        self.set_font("Helvetica", style, size)
        self.set_x(MARGIN + indent)
        self.multi_cell(
            self.content_width - indent,
            size * 0.47,
            pdf_text(text),
            align="L",
            new_x="LMARGIN",
            new_y="NEXT",
        )
        self.set_font("Helvetica", size=BODY_PT)

    def bullet(self, text: str, size: float = BODY_PT) -> None:
        """A line of a report: a dash, then the words wrapped under themselves."""
        self.set_font("Helvetica", size=size)
        self.set_x(MARGIN + 3)
        self.cell(4, size * 0.47, "-")
        self.multi_cell(
            self.content_width - 7,
            size * 0.47,
            pdf_text(text),
            align="L",
            new_x="LMARGIN",
            new_y="NEXT",
        )

    def mono(self, text: str, size: float = SMALL_PT + 1) -> None:
        self.set_font("Courier", size=size)
        self.multi_cell(0, size * 0.47, pdf_text(text), align="L", new_x="LMARGIN", new_y="NEXT")
        self.set_font("Helvetica", size=BODY_PT)

    # -- tables ----------------------------------------------------------------------------
    def grid(
        self,
        head: Sequence[str],
        rows: Sequence[Sequence[Any]],
        widths: Sequence[float],
        align: Sequence[str] | None = None,
        size: float = SMALL_PT + 0.5,
        min_height: float | None = None,
    ) -> None:
        """A ruled table; its heading row repeats on every page it runs onto. ``widths``
        are parts of the page's width; ``align`` per column ("L", "R", "C")."""
        self.set_font("Helvetica", size=size)
        aligns = list(align or ["L"] * len(head))
        heading = FontFace(emphasis="BOLD", fill_color=(HEAD_FILL, HEAD_FILL, HEAD_FILL))
        with self.table(
            col_widths=tuple(widths),
            width=self.content_width,
            headings_style=heading,
            line_height=size * 0.47,
            text_align=tuple(aligns),
            padding=(0.9, 1.2),
            repeat_headings=1,
            min_row_height=min_height,
        ) as table:
            top = table.row()
            for h in head:
                top.cell(pdf_text(h))
            for values in rows:
                row = table.row()
                for value in values:
                    row.cell(pdf_text(value))
        self.set_font("Helvetica", size=BODY_PT)
        self.ln(2)

    def box(self, x: float, y: float, w: float, h: float, label: str = "") -> None:
        """An empty box to write in, its label in small print inside the top left."""
        self.rect(x, y, w, h)
        if label:
            self.set_font("Helvetica", size=SMALL_PT)
            self.set_xy(x + 0.8, y + 0.6)
            self.cell(w - 1.6, 3.6, pdf_text(label))
            self.set_font("Helvetica", size=BODY_PT)

    # -- the QR code -------------------------------------------------------------------------
    def qr(self, data: str, x: float, y: float, size: float) -> None:
        """``data`` as a QR code ``size`` mm square with its quiet zone, drawn as black
        squares (sharp at any printer's resolution)."""
        code = segno.make(data, error="m", micro=False)
        matrix = code.matrix
        quiet = 4
        count = len(matrix) + 2 * quiet
        module = size / count
        self.set_fill_color(0, 0, 0)
        for r, line in enumerate(matrix):
            c = 0
            while c < len(line):
                if not line[c]:
                    c += 1
                    continue
                start = c
                while c < len(line) and line[c]:
                    c += 1
                self.rect(
                    x + (quiet + start) * module,
                    y + (quiet + r) * module,
                    (c - start) * module,
                    module,
                    style="F",
                )
        self.set_fill_color(255, 255, 255)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.output(str(path))
        return path
