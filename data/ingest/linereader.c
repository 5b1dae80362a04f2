#include "data/ingest/linereader.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

#define LR_CHUNK (1u << 20)

void lr_init(LineReader *lr, FILE *f, size_t max_line)
{
    memset(lr, 0, sizeof *lr);
    lr->f = f;
    lr->max_line = max_line;
    lr->cap = max_line + LR_CHUNK + 1;
    lr->buf = xmalloc(lr->cap);
}

void lr_done(LineReader *lr)
{
    free(lr->buf);
    lr->buf = NULL;
}

/* Read more into the buffer; 0 on data or EOF, -1 on error. */
static int fill(LineReader *lr)
{
    if (lr->start > 0) {
        memmove(lr->buf, lr->buf + lr->start, lr->end - lr->start);
        lr->end -= lr->start;
        lr->start = 0;
    }
    size_t room = lr->cap - 1 - lr->end;
    size_t got = fread(lr->buf + lr->end, 1, room < LR_CHUNK ? room : LR_CHUNK, lr->f);
    lr->end += got;
    lr->bytes_read += (int64_t)got;
    if (got == 0) {
        if (ferror(lr->f))
            return -1;
        lr->eof = 1;
    }
    return 0;
}

static void emit(LineReader *lr, size_t nl, char **line, size_t *len)
{
    char *s = lr->buf + lr->start;
    size_t n = nl - lr->start;
    if (n > 0 && s[n - 1] == '\r')
        n--;
    s[n] = '\0';
    *line = s;
    *len = n;
    lr->start = nl < lr->end ? nl + 1 : lr->end;
}

/* Drop everything up to and including the next newline. */
static int skip_rest(LineReader *lr)
{
    for (;;) {
        char *nl = memchr(lr->buf + lr->start, '\n', lr->end - lr->start);
        if (nl) {
            lr->start = (size_t)(nl - lr->buf) + 1;
            return 0;
        }
        lr->start = lr->end;
        if (lr->eof)
            return 0;
        if (fill(lr) < 0)
            return -1;
    }
}

int lr_next(LineReader *lr, char **line, size_t *len)
{
    size_t scan = lr->start;
    for (;;) {
        char *nl = memchr(lr->buf + scan, '\n', lr->end - scan);
        if (nl) {
            size_t pos = (size_t)(nl - lr->buf);
            lr->lineno++;
            if (pos - lr->start > lr->max_line) {
                lr->start = pos + 1;
                return LR_TOO_LONG;
            }
            emit(lr, pos, line, len);
            return LR_LINE;
        }
        if (lr->end - lr->start > lr->max_line) {
            lr->lineno++;
            return skip_rest(lr) < 0 ? LR_ERROR : LR_TOO_LONG;
        }
        if (lr->eof) {
            if (lr->end == lr->start)
                return LR_EOF;
            lr->lineno++; /* last line without a newline */
            emit(lr, lr->end, line, len);
            return LR_LINE;
        }
        scan = lr->end - lr->start; /* offset to resume scanning after fill */
        if (fill(lr) < 0)
            return LR_ERROR;
        scan = lr->start + scan;
    }
}
