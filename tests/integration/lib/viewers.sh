# Sourced by the viewer tests (tests/integration/viewers_*.sh).
# viewers_need_browser: exit 77 (skip) unless node, Chromium and the npm packages of
# tests/viewers (installed by `make check`: `make viewers-deps`) are there.
viewers_need_browser() {
    command -v node >/dev/null || { echo "node not installed"; exit 77; }
    [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium not installed"; exit 77; }
    [ -d tests/viewers/node_modules/playwright-core ] && [ -d tests/viewers/node_modules/speedscope ] ||
        { echo "tests/viewers/node_modules missing (make viewers-deps)"; exit 77; }
}

# viewers_node SCRIPT ARGS...: node with the viewers' modules
viewers_node() {
    node "$@"
}

# viewers_need_x: exit 77 unless Xvfb, KCachegrind, dbus-run-session, xdotool, ImageMagick's import and
# tesseract are there.
viewers_need_x() {
    local t
    for t in Xvfb kcachegrind dbus-run-session xdotool import tesseract; do
        command -v $t >/dev/null || { echo "$t not installed"; exit 77; }
    done
}
