#!/bin/sh
# The end-to-end test drives Debian's Chromium (no browser download works here). Install it when missing,
# and fail loudly when that is impossible: a browser test must never be skipped silently.
set -eu

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: FAILED: apt-get is not available, cannot install chromium" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else
    echo "ensure-chromium: FAILED: not root and no sudo, cannot install chromium" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
# Serialised: parallel test runs must not fight over the dpkg lock.
$SUDO flock /tmp/ensure-chromium.lock sh -c \
  '[ -x "$1" ] || { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null; }' \
  ensure-chromium "$CHROMIUM" || {
  echo "ensure-chromium: FAILED: apt-get could not install chromium" >&2
  exit 1
}
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: FAILED: chromium installed but $CHROMIUM does not exist" >&2
  exit 1
fi
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed" >&2
