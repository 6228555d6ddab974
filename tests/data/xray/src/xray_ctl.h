/* Start and flush the XRay FDR runtime from C (the runtime's headers are C++ only). */
#ifndef XRAY_CTL_H
#define XRAY_CTL_H
int __xray_log_init_mode(const char *mode, const char *config);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);

#define XRAY_LOG_INITIALIZED 2
#define XRAY_LOG_FINALIZED 4
#define XRAY_LOG_FLUSHED 2

/* Starts FDR logging when the process runs with xray_mode=xray-fdr; a no-op otherwise. */
static inline void xray_ctl_start(void)
{
    const char *mode = getenv("XRAY_CTL_MODE");
    if (mode && strcmp(mode, "fdr") == 0)
        (void)__xray_log_init_mode("xray-fdr", "");
}

static inline void xray_ctl_stop(void)
{
    const char *mode = getenv("XRAY_CTL_MODE");
    if (mode && strcmp(mode, "fdr") == 0) {
        (void)__xray_log_finalize();
        (void)__xray_log_flushLog();
    }
}
#endif
