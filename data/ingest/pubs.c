#include "data/ingest/pubs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
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
    int rc = in ? run(st, in, fmt, &c, err) : cp_err_set(err, "%s: %s", path, strerror(errno));
    if (in && in != f)
        fclose(in);
    fclose(f);
    return rc;
}
