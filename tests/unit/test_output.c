/* tk_output: temp file + rename, refusal to overwrite, abort leaves nothing. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tk_test.h"
#include "tracekit/tracekit.h"

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static void test_commit_abort_force(void)
{
    char dir[] = "/tmp/tk_test_out_XXXXXX";
    TK_CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    tk_output *o;
    tk_error err;
    TK_CHECK(tk_output_open(&o, path, 0, &err) == TK_OK);
    fputs("hello\n", tk_output_file(o));
    struct stat sb;
    TK_CHECK(stat(path, &sb) != 0); /* not there until committed */
    TK_CHECK(tk_output_commit(o, &err) == TK_OK);
    TK_CHECK(stat(path, &sb) == 0 && sb.st_size == 6);
    /* exists: refused without force */
    TK_CHECK(tk_output_open(&o, path, 0, &err) == TK_ERR_EXISTS);
    /* abort leaves the old file and no temp file */
    TK_CHECK(tk_output_open(&o, path, TK_OUTPUT_FORCE, &err) == TK_OK);
    fputs("partial", tk_output_file(o));
    tk_output_abort(o);
    TK_CHECK(stat(path, &sb) == 0 && sb.st_size == 6);
    TK_CHECK_EQ_U64(count_entries(dir), 1);
    /* force replaces */
    TK_CHECK(tk_output_open(&o, path, TK_OUTPUT_FORCE, &err) == TK_OK);
    fputs("hi\n", tk_output_file(o));
    TK_CHECK(tk_output_commit(o, &err) == TK_OK);
    TK_CHECK(stat(path, &sb) == 0 && sb.st_size == 3);
    TK_CHECK_EQ_U64(count_entries(dir), 1);
    unlink(path);
    rmdir(dir);
}

static void test_bad_directory(void)
{
    tk_output *o;
    tk_error err;
    TK_CHECK(tk_output_open(&o, "/nonexistent/dir/x", 0, &err) == TK_ERR_IO);
    TK_CHECK(tk_output_open(&o, "/tmp", TK_OUTPUT_FORCE, &err) == TK_ERR_IO);
}

TK_TEST_MAIN(TK_CASE(test_commit_abort_force), TK_CASE(test_bad_directory))
