#!/bin/sh
# Installs, only when missing, every Debian package that tracekit's build,
# tests, demo, fuzzing and benchmarks need. Quiet when everything is present.
# Works on a fresh Debian 12 (no package lists yet): runs apt-get update first.
set -eu

PACKAGES="
build-essential pkg-config make
zlib1g-dev libbz2-dev liblzma-dev libzstd-dev libelf-dev libdw-dev libiberty-dev
gzip bzip2 xz-utils zstd
clang llvm libclang-rt-14-dev clang-format
musl-tools
valgrind
time python3 python3-cffi binutils sqlite3 gdb
man-db groff-base zsh
graphviz
libopenmpi-dev openmpi-bin
nodejs chromium xvfb kcachegrind dbus xdotool imagemagick tesseract-ocr tesseract-ocr-eng
"

missing=""
# npm comes with nodejs where nodejs is not Debian's own build
command -v npm >/dev/null 2>&1 || missing=" npm"
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

[ -z "$missing" ] && exit 0

echo "setup-deps: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "setup-deps: need root (or sudo) to install:$missing" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
echo "setup-deps: done" >&2
