"""Sea Control's rules engine: pure Python, no Qt.

The public API lives in a few modules named by the domain:

* :mod:`campaign.world` — the sea-area graph (ranges, route paths and length classes);
* :mod:`campaign.scenario` — scenario data, loaded from and written to CSV folders;
* :mod:`campaign.gamefile` — the game file (one SQLite file);
* :mod:`campaign.cli` — the ``seacontrol-cli`` command line, built on the above.
"""

from __future__ import annotations

__version__ = "0.1.0"
