/* Outputs inside the library: the stream of a tk_output (tracekit/output.h). */
#ifndef TK_CORE_OUTPUT_H
#define TK_CORE_OUTPUT_H

#include <stdio.h>

#include "tracekit/output.h"

/* The stream tk_output_writer writes to (stdout for standard output). */
FILE *tk_output_stream(tk_output *o);

#endif
