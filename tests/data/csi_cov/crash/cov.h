/* Coverage instrumentation written by hand the way csi-cc lays it out (see
 * instrumentor/{FuncCoverage,CallCoverage,BBCoverage,LocalCoveragePass}.cpp
 * upstream): one global byte per function (__FC_arr_FILE_FN) set on entry, a
 * global byte array per function for its call sites (__CC_arr_FILE_FN[i],
 * set once the call has returned) and one for its blocks (__BBC_arr_FILE_FN[i],
 * set when the block starts). gen-metadata.awk writes the matching .debug_FC,
 * .debug_CC and .debug_BBC texts and the arrays' definitions from these
 * markers. Each source defines COV_FILE, csi-cc's mangling of its file name. */
#ifndef COV_H
#define COV_H

#define COV_CAT(p, k, f) p##k##_##f
#define COV_NAME(p, k, f) COV_CAT(p, k, f)
/* function entry */
#define FC(f) (COV_NAME(__FC_arr_, COV_FILE, f) = 1)
/* start of instrumented block i; BBU: a block left uninstrumented */
#define BB(f, i) (COV_NAME(__BBC_arr_, COV_FILE, f)[i] = 1)
#define BBU(f) ((void)0)
/* instrumented call site i (its flag set after the call returns); CALLV
 * gives the call's value; CALLU: a call site left uninstrumented */
#define CALL(f, i, call) ((void)(call), COV_NAME(__CC_arr_, COV_FILE, f)[i] = 1)
#define CALLV(f, i, call)                                                 \
    __extension__({                                                       \
        __typeof__(call) cov_value_ = (call);                             \
        COV_NAME(__CC_arr_, COV_FILE, f)[i] = 1;                          \
        cov_value_;                                                       \
    })
#define CALLU(f, call) ((void)(call))

#endif
