#ifndef LINEREADER_H
#define LINEREADER_H
/* linereader: lines out of a FILE* through one fixed buffer, so memory
 * stays bounded whatever the file size. Lines are returned in place,
 * writable and NUL-terminated, without their "\n" or "\r\n"; they stay
 * valid until the next call. A line longer than the limit is skipped
 * whole and reported, never truncated silently. */

#include <stdint.h>
#include <stdio.h>

typedef struct LineReader {
    FILE *f;
    char *buf;
    size_t cap, start, end, max_line;
    int64_t lineno;     /* 1-based number of the line last returned */
    int64_t bytes_read; /* consumed from f so far */
    int eof;
} LineReader;

enum { LR_EOF = 0, LR_LINE = 1, LR_TOO_LONG = 2, LR_ERROR = -1 };

/* max_line: longest line accepted, in bytes. Buffer freed by lr_done. */
void lr_init(LineReader *lr, FILE *f, size_t max_line);
void lr_done(LineReader *lr);

/* LR_LINE with line and len set, LR_TOO_LONG (lr->lineno names it; the line
 * was skipped), LR_EOF, or LR_ERROR (errno set by fread). */
int lr_next(LineReader *lr, char **line, size_t *len);

#endif
