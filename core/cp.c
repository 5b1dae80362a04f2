#include "cp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cp_err_set(CpErr *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void cp_err_prefix(CpErr *err, const char *prefix)
{
    if (!err)
        return;
    char old[CP_ERR_MAX];
    memcpy(old, err->msg, sizeof old);
    old[CP_ERR_MAX - 1] = '\0';
    size_t p = strlen(prefix), o = strlen(old), cap = CP_ERR_MAX - 1, k = 0;
    for (size_t i = 0; i < p && k < cap; i++)
        err->msg[k++] = prefix[i];
    for (size_t i = 0; i < 2 && k < cap; i++)
        err->msg[k++] = ": "[i];
    for (size_t i = 0; i < o && k < cap; i++)
        err->msg[k++] = old[i];
    err->msg[k] = '\0';
}

static void oom(size_t n)
{
    fprintf(stderr, "capplan: out of memory (%zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        oom(count * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

void cpbuf_init(CpBuf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void cpbuf_done(CpBuf *b)
{
    free(b->data);
    cpbuf_init(b);
}

void cpbuf_reserve(CpBuf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void cpbuf_append(CpBuf *b, const void *p, size_t n)
{
    cpbuf_reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void cpbuf_clear(CpBuf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}
