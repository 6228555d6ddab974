/* tk_output: temp file + rename, refusal to overwrite, abort leaves nothing. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tk_test.h"
#include "core/output.h"
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
    fputs("hello\n", tk_output_stream(o));
    struct stat sb;
    TK_CHECK(stat(path, &sb) != 0); /* not there until committed */
    TK_CHECK(tk_output_commit(o, &err) == TK_OK);
    TK_CHECK(stat(path, &sb) == 0 && sb.st_size == 6);
    /* exists: refused without force */
    TK_CHECK(tk_output_open(&o, path, 0, &err) == TK_ERR_EXISTS);
    /* abort leaves the old file and no temp file */
    TK_CHECK(tk_output_open(&o, path, TK_OUTPUT_FORCE, &err) == TK_OK);
    fputs("partial", tk_output_stream(o));
    tk_output_abort(o);
    TK_CHECK(stat(path, &sb) == 0 && sb.st_size == 6);
    TK_CHECK_EQ_U64(count_entries(dir), 1);
    /* force replaces */
    TK_CHECK(tk_output_open(&o, path, TK_OUTPUT_FORCE, &err) == TK_OK);
    fputs("hi\n", tk_output_stream(o));
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

/* A FIFO (like /dev/null or /dev/stdout, not a regular file) is written
 * directly, without --force, and stays what it is. */
static void test_fifo_written_in_place(void)
{
    char dir[] = "/tmp/tk_test_out_XXXXXX";
    TK_CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/fifo", dir);
    TK_CHECK(mkfifo(path, 0600) == 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK); /* a reader, so opening for writing succeeds */
    TK_CHECK(rd >= 0);
    tk_output *o;
    tk_error err;
    TK_CHECK(tk_output_open(&o, path, 0, &err) == TK_OK);
    fputs("through the pipe\n", tk_output_stream(o));
    TK_CHECK(tk_output_commit(o, &err) == TK_OK);
    char buf[64] = {0};
    TK_CHECK(read(rd, buf, sizeof buf - 1) == 17);
    TK_CHECK_STR(buf, "through the pipe\n");
    close(rd);
    struct stat sb;
    TK_CHECK(lstat(path, &sb) == 0 && S_ISFIFO(sb.st_mode));
    TK_CHECK_EQ_U64(count_entries(dir), 1); /* no temporary file beside it */
    unlink(path);
    rmdir(dir);
    /* the real /dev/null too, as a character device it stays */
    TK_CHECK(tk_output_open(&o, "/dev/null", 0, &err) == TK_OK);
    fputs("x", tk_output_stream(o));
    TK_CHECK(tk_output_commit(o, &err) == TK_OK);
    TK_CHECK(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
}

/* A symbolic link to a file: the file is replaced, the link stays a link. */
static void test_symlink_target_replaced(void)
{
    char dir[] = "/tmp/tk_test_out_XXXXXX";
    TK_CHECK(mkdtemp(dir) != NULL);
    char target[256], link[256];
    snprintf(target, sizeof target, "%s/target.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    FILE *f = fopen(target, "w");
    TK_CHECK(f != NULL);
    fputs("old\n", f);
    fclose(f);
    TK_CHECK(symlink("target.txt", link) == 0);
    tk_output *o;
    tk_error err;
    TK_CHECK(tk_output_open(&o, link, 0, &err) == TK_ERR_EXISTS);
    TK_CHECK(tk_output_open(&o, link, TK_OUTPUT_FORCE, &err) == TK_OK);
    fputs("new text\n", tk_output_stream(o));
    TK_CHECK(tk_output_commit(o, &err) == TK_OK);
    struct stat sb;
    TK_CHECK(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    TK_CHECK(stat(target, &sb) == 0 && sb.st_size == 9);
    TK_CHECK_EQ_U64(count_entries(dir), 2);
    unlink(link);
    unlink(target);
    rmdir(dir);
}

TK_TEST_MAIN(TK_CASE(test_commit_abort_force), TK_CASE(test_bad_directory),
             TK_CASE(test_fifo_written_in_place), TK_CASE(test_symlink_target_replaced))
