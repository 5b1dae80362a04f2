#include "data/ingest/pubs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/ingest/pubs_int.h"
#include "data/ingest/textenc.h"
#include "data/store/store.h"

typedef enum { PUBS_OLD_CSV, PUBS_BIB, PUBS_CSV } PubsFormat;

/* The first line's fields include group (the per-group layout). */
static int has_group_column(const char *head)
{
    char line[1024];
    size_t n = strcspn(head, "\r\n");
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), head);
    for (char *t = strtok(line, ","); t; t = strtok(NULL, ",")) {
        while (*t == ' ' || *t == '"')
            t++;
        size_t m = strcspn(t, " \"");
        if ((m == 5 && strncasecmp(t, "group", 5) == 0) ||
            (m == 10 && strncasecmp(t, "group_name", 10) == 0))
            return 1;
    }
    return 0;
}

static PubsFormat detect(const char *path, FILE *f)
{
    size_t n = strlen(path);
    if (n > 4 && strcasecmp(path + n - 4, ".bib") == 0)
        return PUBS_BIB;
    char head[1025];
    size_t got = fread(head, 1, sizeof head - 1, f);
    head[got] = '\0';
    rewind(f);
    const char *p = head;
    if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
        p += 3;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '@' || *p == '%' || strncmp(p, "---", 3) == 0)
        return PUBS_BIB;
    return has_group_column(p) ? PUBS_OLD_CSV : PUBS_CSV;
}

/* The whole of f into memory (owned, NUL-terminated; *n its bytes); NULL
 * with err on a read error. */
static char *slurp(FILE *f, const char *name, size_t *n, CpErr *err)
{
    size_t cap = 65536, len = 0;
    char *b = xmalloc(cap + 1);
    size_t got;
    while ((got = fread(b + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            b = xrealloc(b, cap + 1);
        }
    }
    if (ferror(f)) {
        free(b);
        cp_err_set(err, "%s: read error", name);
        return NULL;
    }
    b[len] = '\0';
    *n = len;
    return b;
}

/* Text no reader may see, refused with one line before any parser does
 * (btparse aborts the process on a NUL byte): UTF-16 or UTF-32 (a byte
 * order mark, or NUL bytes at every other place), any other NUL byte
 * (file:line), a byte FF (never in UTF-8; btparse takes it for the end
 * of the file), an empty file or one of white space only. 0 when the text
 * is fine, else -1 with err. */
int pubs_check_text(const char *b, size_t n, const char *name, CpErr *err)
{
    const unsigned char *u = (const unsigned char *)b;
    if (n >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
        return cp_err_set(err, "%s: UTF-%s text (byte order mark %02X %02X); capplan reads "
                          "UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)",
                          name, n >= 4 && u[2] == 0 && u[3] == 0 ? "32" : "16", u[0], u[1]);
    size_t nul_even = 0, nul_odd = 0, first = n, ff = n;
    for (size_t i = 0; i < n; i++)
        if (u[i] == 0xFF && ff == n)
            ff = i;
        else if (u[i] == 0) {
            if (first == n)
                first = i;
            *(i % 2 ? &nul_odd : &nul_even) += 1;
        }
    if (first < n && n >= 4 && (nul_even + nul_odd) * 4 >= n)
        return cp_err_set(err, "%s: UTF-16 text (NUL bytes between the letters, no byte order "
                          "mark); capplan reads UTF-8: convert it first (iconv -f UTF-16%s -t "
                          "UTF-8)", name, nul_odd > nul_even ? "LE" : "BE");
    if (first < n || ff < n) { /* btparse reads a byte FF as the end of the file */
        size_t at = first < ff ? first : ff;
        long line = 1;
        for (size_t i = 0; i < at; i++)
            line += b[i] == '\n';
        return cp_err_set(err, "%s:%ld: %s", name, line,
                          at == first ? "a NUL byte (not a text file?)"
                                      : "a byte FF, never in UTF-8 (--encoding latin1?)");
    }
    size_t i = 0;
    if (n >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
        i = 3;
    while (i < n && isspace(u[i]))
        i++;
    if (i == n)
        return cp_err_set(err, "%s: empty file", name);
    return 0;
}

static int run(Store *st, FILE *f, PubsFormat fmt, PubsCtx *c, CpErr *err)
{
    const char *format = fmt == PUBS_BIB ? "bibtex" : "pubs-research-csv";
    snprintf(c->res->format, sizeof c->res->format, "%s", format);
    if (store_begin(st, err) < 0)
        return -1;
    c->import_id = store_import_begin(st, "papers", c->name, format, err);
    c->sp = c->import_id < 0 ? NULL : store_pubs_new(st, err);
    int rc = c->sp ? 0 : -1;
    if (rc == 0)
        rc = fmt == PUBS_BIB ? pubs_bib_read(f, c, err) : pubs_csv_read(f, c, err);
    store_pubs_free(c->sp);
    c->sp = NULL;
    c->res->rows_read = c->rc.rows_read;
    c->res->rejected = c->rc.rows_rejected;
    if (rc == 0 && c->rc.rows_read == 0)
        rc = cp_err_set(err, "%s: no %s in it (%s)", c->name,
                        fmt == PUBS_BIB ? "BibTeX entry" : "paper",
                        fmt == PUBS_BIB ? "an '@' starts each entry" : "the CSV holds only a header");
    if (rc == 0)
        rc = store_import_end(st, c->import_id, c->res->rows_read, c->res->added, 0,
                              c->res->rejected, err);
    if (rc == 0 && store_commit(st, err) == 0)
        return 0;
    store_rollback(st);
    return -1;
}

int pubs_import(Store *st, const char *path, const ImportOpts *o, ImportResult *res,
                CpErr *err)
{
    if (strcmp(path, "-") == 0)
        return import_csv(st, "pubs", path, o, res, err);
    FILE *f = fopen(path, "rb");
    if (!f)
        return cp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
    PubsFormat fmt = detect(path, f);
    if (fmt == PUBS_OLD_CSV) {
        fclose(f);
        return import_csv(st, "pubs", path, o, res, err);
    }
    ImportOpts defaults;
    if (!o) {
        import_opts_init(&defaults);
        o = &defaults;
    }
    memset(res, 0, sizeof *res);
    PubsCtx c;
    memset(&c, 0, sizeof c);
    c.name = path;
    c.res = res;
    c.rc.path = path;
    c.rc.strict = o->strict;
    c.rc.reject = o->reject;
    c.rc.reject_ctx = o->reject_ctx;
    /* Latin-1 / Windows-1252 papers (--encoding): converted as read, so
     * btparse and the CSV reader see UTF-8 (issue 14) */
    FILE *in = o->encoding != TEXTENC_UTF8 ? textenc_open(f, (TextEnc)o->encoding) : f;
    size_t n = 0;
    char *text = in ? slurp(in, path, &n, err) : NULL;
    int rc = in ? 0 : cp_err_set(err, "%s: %s", path, strerror(errno));
    if (in && in != f)
        fclose(in);
    fclose(f);
    if (!text)
        return -1;
    /* the readers see the text only once it is known to be text */
    FILE *mem = NULL;
    if (rc == 0 && (rc = pubs_check_text(text, n, path, err)) == 0) {
        mem = fmemopen(text, n, "rb");
        rc = mem ? run(st, mem, fmt, &c, err) : cp_err_set(err, "%s: %s", path, strerror(errno));
    }
    if (mem)
        fclose(mem);
    free(text);
    return rc;
}
