#include "tracekit/tracekit.h"

const char *tk_version(void) { return TK_VERSION_STRING; }
