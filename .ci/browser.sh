#!/usr/bin/env bash
# Installs what the console's browser test needs: Debian's chromium and chromedriver, and
# Selenium (pinned, with its dependencies pinned) in its own virtual environment. Prints the
# path of that environment's python; ConsoleBrowserTests runs Tests/Browser/*.py with it when
# PROVISIO_TEST_BROWSER names it. Idempotent. Everything but the path goes to stderr.
set -euo pipefail

pins="selenium==4.51.0
attrs==26.1.0
certifi==2026.10.19.post1
h11==0.16.0
idna==3.20
outcome==1.3.0.post0
PySocks==1.7.1
sniffio==1.3.1
sortedcontainers==2.4.0
trio==0.35.0
trio-websocket==0.12.2
typing_extensions==4.16.0
urllib3==2.8.0
websocket-client==1.9.2
wsproto==1.3.2"
venv="${PROVISIO_BROWSER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/provisio/selenium-4.51.0}"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq chromium chromium-driver >&2
fi

venv="$(printf '%s' "$pins" | "$(dirname "$0")/pinned-venv.sh" "$venv")"
"$venv/bin/python" -c 'import selenium' || { echo "selenium did not install into $venv" >&2; exit 1; }
echo "$venv/bin/python"
