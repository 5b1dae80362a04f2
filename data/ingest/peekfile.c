#include "data/ingest/peekfile.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"

typedef struct Peek {
    FILE *under;
    char *head;
    size_t len, pos;
} Peek;

static ssize_t peek_read(void *cookie, char *buf, size_t size)
{
    Peek *p = cookie;
    if (p->pos < p->len) {
        size_t n = p->len - p->pos < size ? p->len - p->pos : size;
        memcpy(buf, p->head + p->pos, n);
        p->pos += n;
        return (ssize_t)n;
    }
    size_t got = fread(buf, 1, size, p->under);
    if (got == 0 && ferror(p->under))
        return -1;
    return (ssize_t)got;
}

static int peek_close(void *cookie)
{
    Peek *p = cookie;
    free(p->head);
    free(p);
    return 0;
}

#define PEEK_BUF (256u << 10) /* a pipe's stream reads this much at a time */

FILE *peekfile_open(FILE *f, char *head, size_t headsz, size_t *headlen)
{
    off_t at = ftello(f); /* -1 on a pipe */
    size_t got = fread(head, 1, headsz, f);
    if (got < headsz && ferror(f))
        return NULL;
    *headlen = got;
    if (at >= 0 && fseeko(f, at, SEEK_SET) == 0)
        return f;
    clearerr(f);
    Peek *p = xcalloc(1, sizeof *p);
    p->under = f;
    p->head = xmalloc(got ? got : 1);
    memcpy(p->head, head, got);
    p->len = got;
    cookie_io_functions_t io = {peek_read, NULL, NULL, peek_close};
    FILE *out = fopencookie(p, "r", io);
    if (!out)
        peek_close(p);
    else
        setvbuf(out, NULL, _IOFBF, PEEK_BUF); /* stdio's 8 KiB is a read call each */
    return out;
}

void peekfile_close(FILE *pf, FILE *f)
{
    if (pf && pf != f)
        fclose(pf);
}
