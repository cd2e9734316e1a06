#!/bin/bash
# A turn of the 1942 game played with the keyboard, as a person at the table would, in the
# real app on a virtual X screen with a window manager (issue 15's walk by hand):
#   tools/xwalk.sh OUT_DIR
# Needs Debian's xvfb, openbox, xdotool and imagemagick (and the X libraries the README
# names), and the app installed (pip install -e .). Photographs each moment into OUT_DIR:
# the orders files loaded, every question of steps 8 and 9, Pearl Harbour's In Port card
# and Japan's team view. Look at the pictures.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath "${1:?usage: tools/xwalk.sh OUT_DIR}")
mkdir -p "$OUT"
export DISPLAY=:77
Xvfb :77 -screen 0 1366x768x24 >/dev/null 2>&1 &
XV=$!
sleep 1
openbox >/dev/null 2>&1 &
WM=$!
sleep 1
export HOME=$(mktemp -d)
cd "$ROOT"
unset QT_QPA_PLATFORM
seacontrol > "$OUT/app.log" 2>&1 &
APP=$!
sleep 6
shot() { import -window root "$OUT/$1.png"; }
key() { xdotool key --clearmodifiers "$@"; sleep 0.8; }
WIN=$(xdotool search --name "Sea Control" | head -1)
xdotool windowactivate --sync $WIN; sleep 1
shot 01-start
# load every nation's orders: File → Load orders files… (Ctrl+L)
key ctrl+l
sleep 1
shot 02-file-dialog
xdotool type --delay 20 "$ROOT/data/scenarios/1942/sample-orders/"
key Return
sleep 1
xdotool type --delay 10 '"free_france.json" "germany.json" "italy.json" "japan.json" "netherlands.json" "uk.json" "usa.json" "ussr.json" "vichy_france.json"'
shot 03-files-typed
key Return
sleep 2
shot 04-loaded-summary
key Return
sleep 1
shot 05-orders-loaded
for step in 1 2 3 4 5 6 7 8 9 10; do
  key F5
  sleep 2
  # answer whatever the step asks with Enter (the dialog's default button), photographing it
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    ACTIVE=$(xdotool getactivewindow getwindowname 2>/dev/null)
    case "$ACTIVE" in
      *"Naval battle"*|*"Step losses"*)
        shot "step${step}-q${i}"
        key Return; sleep 1.5;;
      *) break;;
    esac
  done
  shot "step${step}-done"
done
# find Pearl Harbour (Ctrl+F) and read its In Port card
key ctrl+f
xdotool type --delay 20 "Pearl Harbour"
key Return
sleep 1.5
shot 20-pearl-harbour
# View → View as a team… → Japan
key alt+v
key a
sleep 1
xdotool type --delay 30 "J"
key Return
sleep 1.5
shot 21-team-view-japan
echo "what the app printed (nothing is expected):"
grep -v propagateSizeHints "$OUT/app.log" | tail -5
kill $APP; sleep 1; kill $WM $XV
