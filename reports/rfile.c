#include "reports/rfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/anon.h"
#include "reports/anon_order.h"

/* An unnamed file in path's folder (O_TMPFILE): nothing is left behind
 * when the process is killed before the commit. -1 when the file system
 * cannot make one. */
static int open_unnamed(const char *path)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, strlen(dir) + 1, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
    free(dir);
    return fd;
}

int rfile_open(RFile *rf, const char *path, CpErr *err)
{
    size_t n = strlen(path) + 32;
    memset(rf, 0, sizeof *rf);
    rf->tmp = xmalloc(n);
    int fd = open_unnamed(path);
    if (fd >= 0) {
        rf->unnamed = 1;
        snprintf(rf->tmp, n, "%s.tmp%ld", path, (long)getpid());
    } else {
        snprintf(rf->tmp, n, "%s.tmpXXXXXX", path);
        fd = mkstemp(rf->tmp);
    }
    if (fd < 0) {
        cp_err_set(err, "%s: cannot create: %s", path, strerror(errno));
        free(rf->tmp);
        rf->tmp = NULL;
        return -1;
    }
    fchmod(fd, 0644);
    rf->f = fdopen(fd, "w+b");
    if (!rf->f) {
        cp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        if (!rf->unnamed)
            unlink(rf->tmp);
        free(rf->tmp);
        rf->tmp = NULL;
        return -1;
    }
    rf->path = xstrdup(path);
    return 0;
}

/* Give the unnamed file its temporary name (just before the rename). */
static int name_it(RFile *rf)
{
    if (!rf->unnamed)
        return 0;
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(rf->f));
    unlink(rf->tmp); /* a leftover of a killed process with our pid */
    if (linkat(AT_FDCWD, proc, AT_FDCWD, rf->tmp, AT_SYMLINK_FOLLOW) != 0 &&
        linkat(fileno(rf->f), "", AT_FDCWD, rf->tmp, AT_EMPTY_PATH) != 0) /* no /proc */
        return -1;
    rf->unnamed = 0;
    return 0;
}

static void rfile_done(RFile *rf)
{
    free(rf->path);
    free(rf->tmp);
    rf->path = rf->tmp = NULL;
    rf->f = NULL;
}

/* With a scrubber active (reports/anon), the written file once more
 * through it, as a last pass over text written without the escapers. */
static int scrub_file(RFile *rf)
{
    const AnonScrub *a = anon_scrub_current();
    if (!a)
        return 0;
    if (fflush(rf->f) != 0 || fseek(rf->f, 0, SEEK_END) != 0)
        return -1;
    long n = ftell(rf->f);
    if (n < 0 || fseek(rf->f, 0, SEEK_SET) != 0)
        return -1;
    char *text = xmalloc((size_t)n + 1);
    size_t got = fread(text, 1, (size_t)n, rf->f);
    text[got] = '\0';
    size_t plen = strlen(rf->path);
    int xml = plen > 4 && strcmp(rf->path + plen - 4, ".svg") == 0;
    char *clean = got == (size_t)n && strlen(text) == got
                      ? (xml ? anon_scrub_xml(a, text) : anon_scrub_text(a, text))
                      : NULL; /* a NUL inside: not text, left as written */
    free(text);
    if (clean && plen > 4 && strcmp(rf->path + plen - 4, ".csv") == 0) {
        char *sorted = anon_order_csv(clean); /* rows by pseudonym (#29) */
        free(clean);
        clean = sorted;
    }
    if (!clean)
        return got == (size_t)n ? 0 : -1;
    int rc = ftruncate(fileno(rf->f), 0) == 0 && fseek(rf->f, 0, SEEK_SET) == 0 &&
                     fwrite(clean, 1, strlen(clean), rf->f) == strlen(clean)
                 ? 0
                 : -1;
    free(clean);
    return rc;
}

int rfile_commit(RFile *rf, CpErr *err)
{
    int bad = scrub_file(rf) != 0;
    bad = bad || ferror(rf->f) || fflush(rf->f) != 0 || fsync(fileno(rf->f)) != 0 ||
          name_it(rf) != 0;
    int e = errno;
    if (fclose(rf->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && rename(rf->tmp, rf->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        cp_err_set(err, "%s: cannot write: %s", rf->path, strerror(e));
        if (!rf->unnamed)
            unlink(rf->tmp);
    }
    rfile_done(rf);
    return bad ? -1 : 0;
}

void rfile_abort(RFile *rf)
{
    if (rf->f) {
        fclose(rf->f);
        if (!rf->unnamed)
            unlink(rf->tmp);
    }
    rfile_done(rf);
}

int rfile_mkdir(const char *path, CpErr *err)
{
    struct stat sb;
    if (mkdir(path, 0777) == 0)
        return 0;
    if (errno == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return 0;
    return cp_err_set(err, "%s: cannot create the folder: %s", path, strerror(errno));
}
