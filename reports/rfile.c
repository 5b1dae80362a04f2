#include "reports/rfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rfile_open(RFile *rf, const char *path, CpErr *err)
{
    size_t n = strlen(path) + 16;
    memset(rf, 0, sizeof *rf);
    rf->tmp = xmalloc(n);
    snprintf(rf->tmp, n, "%s.tmpXXXXXX", path);
    int fd = mkstemp(rf->tmp);
    if (fd < 0) {
        cp_err_set(err, "%s: cannot create: %s", path, strerror(errno));
        free(rf->tmp);
        rf->tmp = NULL;
        return -1;
    }
    fchmod(fd, 0644);
    rf->f = fdopen(fd, "wb");
    if (!rf->f) {
        cp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
        unlink(rf->tmp);
        free(rf->tmp);
        rf->tmp = NULL;
        return -1;
    }
    rf->path = xstrdup(path);
    return 0;
}

static void rfile_done(RFile *rf)
{
    free(rf->path);
    free(rf->tmp);
    rf->path = rf->tmp = NULL;
    rf->f = NULL;
}

int rfile_commit(RFile *rf, CpErr *err)
{
    int bad = ferror(rf->f) || fflush(rf->f) != 0 || fsync(fileno(rf->f)) != 0;
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
        unlink(rf->tmp);
    }
    rfile_done(rf);
    return bad ? -1 : 0;
}

void rfile_abort(RFile *rf)
{
    if (rf->f) {
        fclose(rf->f);
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
