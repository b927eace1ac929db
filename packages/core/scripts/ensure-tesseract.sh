#!/bin/sh
# OCR of scanned resumes (JPEG, PNG, PDFs without a text layer) drives Debian's Tesseract 5 with the language packs of
# the resumes we read, and pdftoppm (poppler-utils) to rasterize PDF pages. Install them when missing and possible
# (CI runs as root with apt-get); otherwise say so: the OCR tests then skip themselves with this reason.
set -eu

TESSERACT="${TESSERACT_PATH:-/usr/bin/tesseract}"
PDFTOPPM="${PDFTOPPM_PATH:-/usr/bin/pdftoppm}"
LANGS="eng nld deu fra spa ita pol"

have_all() {
  [ -x "$TESSERACT" ] && [ -x "$PDFTOPPM" ] || return 1
  installed="$("$TESSERACT" --list-langs 2>/dev/null || true)"
  for lang in $LANGS; do
    printf '%s\n' "$installed" | grep -qx "$lang" || return 1
  done
}

if have_all; then
  exit 0
fi

echo "ensure-tesseract: tesseract, its language packs ($LANGS) or pdftoppm are missing; installing Debian's tesseract-ocr and poppler-utils" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi
if [ "$SUDO" = "none" ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-tesseract: SKIPPED: cannot install them (needs apt-get and root); the OCR tests will be skipped" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
PACKAGES="tesseract-ocr poppler-utils"
for lang in $LANGS; do PACKAGES="$PACKAGES tesseract-ocr-$lang"; done
# Serialised: parallel test runs must not fight over the dpkg lock.
$SUDO flock /tmp/ensure-tesseract.lock sh -c \
  'apt-get update -qq && apt-get install -y -qq --no-install-recommends $1 >/dev/null' \
  ensure-tesseract "$PACKAGES" || {
  echo "ensure-tesseract: FAILED: apt-get could not install $PACKAGES; the OCR tests will be skipped" >&2
  exit 0
}
if ! have_all; then
  echo "ensure-tesseract: FAILED: installed, but $TESSERACT or $PDFTOPPM or a language pack is still missing" >&2
  exit 0
fi
echo "ensure-tesseract: $("$TESSERACT" --version 2>/dev/null | head -1), $("$PDFTOPPM" -v 2>&1 | head -1) installed" >&2
