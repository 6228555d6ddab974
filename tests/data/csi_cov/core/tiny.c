/* The smallest program with csi-cc's coverage arrays (no C library): the
 * fixture of the CLI and fuzz tests of `tracekit coverage` (make-core.sh). */
unsigned char __FC_arr_tiny_c_work;
unsigned char __CC_arr_tiny_c_work[1];
unsigned char __BBC_arr_tiny_c_work[3];
unsigned char __FC_arr_tiny_c_idle;
unsigned char __BBC_arr_tiny_c_idle[1];
unsigned char __FC_arr_tiny_c__start;
unsigned char __CC_arr_tiny_c__start[1];
unsigned char __BBC_arr_tiny_c__start[1];

void idle(void)
{
    __FC_arr_tiny_c_idle = 1;
    __BBC_arr_tiny_c_idle[0] = 1;
}

void work(int n)
{
    __FC_arr_tiny_c_work = 1;
    __BBC_arr_tiny_c_work[0] = 1;
    if (n > 5) {
        __BBC_arr_tiny_c_work[1] = 1;
        idle();
        __CC_arr_tiny_c_work[0] = 1;
    }
    __BBC_arr_tiny_c_work[2] = 1;
    idle(); /* a call site left uninstrumented */
    *(volatile int *)0 = n;
}

void _start(void)
{
    __FC_arr_tiny_c__start = 1;
    __BBC_arr_tiny_c__start[0] = 1;
    work(2);
    __CC_arr_tiny_c__start[0] = 1;
}
