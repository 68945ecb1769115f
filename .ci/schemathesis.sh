#!/usr/bin/env bash
# Installs schemathesis (pinned, with every dependency pinned too, so a seed draws the same
# requests everywhere) into its own virtual environment, if it is not there yet, and prints the
# path of its executable: the tests run it against `provisio serve`'s /openapi.yaml when
# PROVISIO_TEST_SCHEMATHESIS names it. Idempotent: a virtual environment that already holds
# exactly these pins is reused. Everything but the path goes to stderr.
set -euo pipefail

version="4.32.5"
pins="schemathesis==$version
anyio==4.16.0
certifi==2026.10.18
charset-normalizer==3.5.2
click==8.5.1
graphql-core==3.3.2
harfile==0.6.0
hypothesis==6.170.15
hypothesis-graphql==0.13.5
idna==3.20
iniconfig==2.3.1
jsonschema_rs==0.60.3
markdown-it-py==4.3.0
MarkupSafe==3.0.4
mdurl==0.1.2
packaging==26.3
pluggy==1.7.0
Pygments==2.21.0
pyrate-limiter==4.5.1
pytest==9.2.0
PyYAML==6.0.3
requests==2.34.2
rich==15.0.0
sortedcontainers==2.4.0
typing_extensions==4.16.0
urllib3==2.8.0
Werkzeug==3.1.9"
venv="${PROVISIO_SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/provisio/schemathesis-$version}"

venv="$(printf '%s' "$pins" | "$(dirname "$0")/pinned-venv.sh" "$venv")"
"$venv/bin/schemathesis" --version 2>/dev/null | grep -qF "version $version" \
    || { echo "schemathesis $version did not install into $venv" >&2; exit 1; }
echo "$venv/bin/schemathesis"
