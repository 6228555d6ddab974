/* Internal header of the profile model; the API is public in tracekit/profile.h. */
#ifndef TK_MODEL_PROFILE_H
#define TK_MODEL_PROFILE_H

#include "tracekit/profile.h"

#endif
