#ifndef PEEKFILE_H
#define PEEKFILE_H
/* peekfile: look at the first bytes of a stream (a file or a pipe) to
 * detect its format, then read it whole from the start: a file that can
 * seek is put back where it was and read as it is (one copy of each byte,
 * large reads: issue 31 item 3); a pipe's bytes looked at are replayed
 * before the rest of the stream. */

#include <stddef.h>
#include <stdio.h>

/* Reads up to headsz bytes of f into head (*headlen set) and returns a
 * stream that yields those bytes and then the rest of f: f itself, back at
 * where it was, when it can seek, else a new stream. The caller ends it
 * with peekfile_close (which never closes f). NULL on error. */
FILE *peekfile_open(FILE *f, char *head, size_t headsz, size_t *headlen);

/* End the stream peekfile_open(f, ...) returned. */
void peekfile_close(FILE *pf, FILE *f);

#endif
