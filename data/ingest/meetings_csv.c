/* meetings_csv: see meetings_csv.h. */
#include "data/ingest/meetings_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/meetings_rules.h"
#include "data/ingest/csvin.h"
#include "data/store/store.h"
#include "data/store/store_meetings.h"

/* ---- import ---- */

typedef struct ImportCtx {
    Store *st;
    const char *name, *today;
    int kind;          /* -1 until the header */
    size_t nfields;    /* the header's */
    int idx[10];
    int rows;
} ImportCtx;

static char *field(const CsvinRec *r, const ImportCtx *c, int col)
{
    static char empty[1];
    int i = c->idx[col];
    empty[0] = '\0';
    return i >= 0 && (size_t)i < r->n ? r->f[i] : empty;
}

/* A text cell as exported: a leading ' before = + - @ is taken off. */
static char *text_cell(char *s)
{
    return s[0] == '\'' && s[1] && strchr("=+-@", s[1]) ? s + 1 : s;
}

static int bad(const ImportCtx *c, const CsvinRec *r, const char *col, CpErr *err,
               const char *why, const char *value)
{
    return cp_err_set(err, "%s:%lld: field %s: %s '%.80s'", c->name, (long long)r->line, col, why,
                      value);
}

static int check_group(const ImportCtx *c, const CsvinRec *r, const char *g, CpErr *err)
{
    int k = store_meetings_group_known(c->st, g, err);
    if (k < 0)
        return -1;
    return k ? 0 : bad(c, r, "group", err, "unknown group", g);
}

static int check_user(const ImportCtx *c, const CsvinRec *r, const char *col, const char *u,
                      CpErr *err)
{
    int k = store_meetings_user_known(c->st, u, err);
    if (k < 0)
        return -1;
    return k ? 0 : bad(c, r, col, err, "unknown user", u);
}

/* Every ';'-separated login of a must be known; out gets them trimmed and
 * joined by ';' without empty ones ("ann; bob;" -> "ann;bob"). */
static int clean_attendees(const ImportCtx *c, const CsvinRec *r, const char *a, char *out,
                           size_t outn, CpErr *err)
{
    char buf[1024];
    size_t o = 0;
    snprintf(buf, sizeof buf, "%s", a);
    out[0] = '\0';
    for (char *save = NULL, *t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
        while (*t == ' ')
            t++;
        size_t n = strlen(t);
        while (n && t[n - 1] == ' ')
            t[--n] = '\0';
        if (!n)
            continue;
        if (check_user(c, r, "attendees", t, err) < 0)
            return -1;
        int w = snprintf(out + o, outn - o, "%s%s", o ? ";" : "", t);
        if (w < 0 || (size_t)w >= outn - o)
            return bad(c, r, "attendees", err, "too long", a);
        o += (size_t)w;
    }
    return 0;
}

static int meeting_row(ImportCtx *c, const CsvinRec *r, CpErr *err)
{
    StoreMeeting m = {field(r, c, 0), field(r, c, 1), text_cell(field(r, c, 3)),
                      field(r, c, 2)};
    if (!m.group[0])
        return bad(c, r, "group", err, "empty", m.group);
    if (check_group(c, r, m.group, err) < 0)
        return -1;
    const char *fld;
    char why[160];
    if (meetings_check(m.date, m.status, c->today, &fld, why, sizeof why) < 0)
        return cp_err_set(err, "%s:%lld: field %s: %s", c->name, (long long)r->line, fld, why);
    char att[1024];
    if (clean_attendees(c, r, m.attendees, att, sizeof att, err) < 0)
        return -1;
    m.attendees = att;
    return store_meetings_put(c->st, &m, err);
}

/* A stated number: empty is NAN; else a number >= 0. */
static int need_num(const ImportCtx *c, const CsvinRec *r, int col, double *v, CpErr *err)
{
    const char *s = field(r, c, col);
    if (!s[0]) {
        *v = NAN;
        return 0;
    }
    char *end;
    *v = strtod(s, &end);
    if (*end || !isfinite(*v))
        return bad(c, r, need_cols[col], err, "not a number", s);
    if (*v < 0)
        return bad(c, r, need_cols[col], err,
                   col == 3 || col == 7 ? "negative GPU count" : "negative value", s);
    return 0;
}

static int need_row(ImportCtx *c, const CsvinRec *r, CpErr *err)
{
    StoreNeed v = {field(r, c, 0), field(r, c, 1), field(r, c, 2), text_cell(field(r, c, 9)),
                   {0}};
    if (!v.user[0])
        return bad(c, r, "user", err, "empty", v.user);
    if (check_user(c, r, "user", v.user, err) < 0 || check_group(c, r, v.group, err) < 0)
        return -1;
    int member = store_meetings_member(c->st, v.user, v.group, err);
    if (member < 0)
        return -1;
    if (!member)
        return cp_err_set(err, "%s:%lld: field group: %s is not in %s (roster or accounts)",
                          c->name, (long long)r->line, v.user, v.group);
    if (!meetings_date_ok(v.date))
        return bad(c, r, "date", err, "bad date (YYYY-MM-DD)", v.date);
    if (strcmp(v.date, c->today) > 0)
        return cp_err_set(err, "%s:%lld: field date: %s is in the future for a stated need "
                               "(today is %s)",
                          c->name, (long long)r->line, v.date, c->today);
    for (int i = 0; i < NEED_NUM; i++)
        if (need_num(c, r, 3 + i, &v.num[i], err) < 0)
            return -1;
    return store_meetings_need_put(c->st, &v, err);
}

static int header(ImportCtx *c, const CsvinRec *r, CpErr *err)
{
    c->kind = csvin_has_column(r, "user") ? MEET_CSV_NEEDS : MEET_CSV_MEETINGS;
    if (c->kind == MEET_CSV_NEEDS)
        return csvin_columns(r, c->name, need_cols, 10, 3, c->idx, err);
    return csvin_columns(r, c->name, meet_cols, 4, 3, c->idx, err);
}

static int import_rec(void *ctx, const CsvinRec *r, CpErr *err)
{
    ImportCtx *c = ctx;
    if (c->kind < 0) {
        c->nfields = r->n;
        return header(c, r, err);
    }
    if (csvin_rec_empty(r))
        return 0;
    if (r->n != c->nfields)
        return cp_err_set(err, "%s:%lld: expected %zu fields as in the header, found %zu",
                          c->name, (long long)r->line, c->nfields, r->n);
    if ((c->kind == MEET_CSV_NEEDS ? need_row(c, r, err) : meeting_row(c, r, err)) < 0)
        return -1;
    c->rows++;
    return 0;
}

int meetings_import(Store *st, const char *path, const char *today, int *kind, int *rows,
                    CpErr *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cp_err_set(err, "%s: %s", path, strerror(errno));
    ImportCtx c = {st, path, today, -1, 0, {0}, 0};
    int rc = store_meetings_ensure(st, err);
    if (rc == 0)
        rc = store_begin(st, err);
    if (rc == 0) {
        rc = csvin_read(f, path, 0, import_rec, &c, err);
        if (rc == 0 && c.kind < 0)
            rc = cp_err_set(err, "%s:1: no header line", path);
        if (rc == 0)
            rc = store_commit(st, err);
        if (rc < 0)
            store_rollback(st);
    }
    fclose(f);
    if (kind)
        *kind = c.kind;
    if (rows)
        *rows = rc == 0 ? c.rows : 0;
    return rc;
}
