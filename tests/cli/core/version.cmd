# the one version number, include/tracekit/tracekit.h's, printed by --version and version
v=$(sed -n 's/^#define TK_VERSION_STRING "\(.*\)"$/\1/p' include/tracekit/tracekit.h)
[ -n "$v" ] && [ "$(tracekit --version)" = "tracekit $v" ] && [ "$(tracekit version)" = "tracekit $v" ] &&
    echo "tracekit --version prints the version of tracekit.h"
