#ifndef PEEKFILE_H
#define PEEKFILE_H
/* peekfile: look at the first bytes of a stream (a file or a pipe) to
 * detect its format, then read it whole from the start, without seeking:
 * the bytes looked at are replayed before the rest of the stream. */

#include <stddef.h>
#include <stdio.h>

/* Reads up to headsz bytes of f into head (*headlen set) and returns a new
 * stream that yields those bytes and then the rest of f. The caller closes
 * the returned stream with fclose (which does not close f). NULL on error. */
FILE *peekfile_open(FILE *f, char *head, size_t headsz, size_t *headlen);

#endif
