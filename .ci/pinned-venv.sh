#!/usr/bin/env bash
# Creates (or reuses) a Python virtual environment holding exactly the pinned requirements
# given on standard input, one per line, and prints its path. A venv whose recorded pins
# differ is made again. Debian keeps venv in python3-venv; it is installed when missing.
#
#   .ci/pinned-venv.sh DIRECTORY < pins.txt
set -euo pipefail

venv="$1"
pins="$(cat)"
python="${PYTHON:-python3}"

if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/provisio-pins.txt" 2>/dev/null)" = "$pins" ]; then
    echo "$venv"
    exit 0
fi
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
if ! "$python" -m venv "$venv" >&2 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq python3-venv >&2
    rm -rf "$venv"
    "$python" -m venv "$venv" >&2
fi
# shellcheck disable=SC2086 # one requirement per word
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input $pins >&2
printf '%s' "$pins" > "$venv/provisio-pins.txt"
echo "$venv"
