#ifndef RFILE_H
#define RFILE_H
/* rfile: an output file written atomically. The text goes to an unnamed
 * file in the target's folder (O_TMPFILE; mkstemp where the file system
 * has none): a process killed while writing leaves nothing behind.
 * rfile_commit flushes it to disk, names it and renames it over the
 * target, so a reader sees the old file or the whole new one, never half
 * of it; rfile_abort drops it. */

#include <stdio.h>

#include "core/cp.h"

typedef struct RFile {
    FILE *f;     /* write here; owned until commit or abort */
    char *path;  /* the target; owned */
    char *tmp;   /* the temporary file's name; owned */
    int unnamed; /* 1: the file has no name yet (O_TMPFILE) */
} RFile;

/* Open a temporary file beside path. 0, or -1 with err (rf then holds
 * nothing to free). */
int rfile_open(RFile *rf, const char *path, CpErr *err);
/* Flush, sync, close and rename over the target; frees rf's strings. On
 * failure the temporary file is removed and -1 returned with err. */
int rfile_commit(RFile *rf, CpErr *err);
/* Close and remove the temporary file; frees rf's strings. */
void rfile_abort(RFile *rf);

/* mkdir path (mode 0777 less umask) unless it is a folder already. */
int rfile_mkdir(const char *path, CpErr *err);

#endif
