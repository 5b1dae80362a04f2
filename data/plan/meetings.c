/* meetings: the meeting workflow (data/meetings.h). */
#include "data/plan/meetings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/profiles.h"
#include "data/ingest/csvin.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

/* ---- the tolerance rule ---- */

int meetings_gpus_off(double stated, double measured)
{
    if (isnan(stated) || isnan(measured) || stated < 0 || measured < 0)
        return 0;
    double d = fabs(stated - measured);
    return d > MEET_TOL_ABS && (measured <= 0 || d / measured > MEET_TOL_REL);
}

int meetings_mem_off(double stated_gib, double measured_gib)
{
    if (isnan(stated_gib) || isnan(measured_gib) || stated_gib < 0 || measured_gib < 0)
        return 0;
    return profiles_mem_class(stated_gib) != profiles_mem_class(measured_gib);
}

int meetings_date_ok(const char *s)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return 0;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
        return 0;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return !(m == 2 && d == 29 && !leap);
}

int meetings_check(const char *date, const char *status, const char *today, const char **field,
                   char *why, size_t wn)
{
    *field = "date";
    if (!meetings_date_ok(date))
        return snprintf(why, wn, "'%.40s' is not a date (YYYY-MM-DD)", date), -1;
    if (strcmp(status, "planned") && strcmp(status, "held") && strcmp(status, "cancelled")) {
        *field = "status";
        return snprintf(why, wn, "'%.40s' is not planned, held or cancelled", status), -1;
    }
    if (strcmp(status, "planned") == 0 && strcmp(date, today) < 0)
        return snprintf(why, wn, "%s is in the past for a planned meeting (today is %s)", date,
                        today), -1;
    if (strcmp(status, "held") == 0 && strcmp(date, today) > 0)
        return snprintf(why, wn, "%s is in the future for a held meeting (today is %s)", date,
                        today), -1;
    return 0;
}

/* ---- import ---- */

/* group, date and status required; attendees may be left out */
static const char *const meet_cols[] = {"group", "date", "status", "attendees"};
static const char *const need_cols[] = {"user", "group", "date", "gpus_fulltime",
                                        "gpu_mem_class_gib", "typical_hours", "burst_per_month",
                                        "burst_gpus", "burst_hours", "text"};

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

/* ---- export ---- */

static void csv_text(FILE *f, const char *s)
{
    if (!s)
        s = "";
    int quote = strpbrk(s, ",\"\r\n") != NULL || s[0] == ' ' ||
                (s[0] && s[strlen(s) - 1] == ' ');
    const char *lead = s[0] && strchr("=+-@", s[0]) ? "'" : "";
    if (!quote) {
        fprintf(f, "%s%s", lead, s);
        return;
    }
    fprintf(f, "\"%s", lead);
    for (; *s; s++)
        fputs(*s == '"' ? "\"\"" : (char[2]){*s, 0}, f);
    fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
    if (!isnan(v))
        fprintf(f, "%.15g", v);
}

static int write_meetings(Store *st, FILE *f, int *rows, CpErr *err)
{
    StoreMeeting *m;
    size_t n;
    if (store_meetings_list(st, &m, &n, err) < 0)
        return -1;
    fprintf(f, "group,date,attendees,status\r\n");
    for (size_t i = 0; i < n; i++) {
        csv_text(f, m[i].group);
        fputc(',', f);
        csv_text(f, m[i].date);
        fputc(',', f);
        csv_text(f, m[i].attendees);
        fputc(',', f);
        csv_text(f, m[i].status);
        fputs("\r\n", f);
    }
    *rows = (int)n;
    store_meetings_free(m, n);
    return 0;
}

static int write_needs(Store *st, FILE *f, int *rows, CpErr *err)
{
    StoreNeed *v;
    size_t n;
    if (store_meetings_needs(st, &v, &n, err) < 0)
        return -1;
    for (int c = 0; c < 10; c++)
        fprintf(f, "%s%s", c ? "," : "", need_cols[c]);
    fputs("\r\n", f);
    for (size_t i = 0; i < n; i++) {
        csv_text(f, v[i].user);
        fputc(',', f);
        csv_text(f, v[i].group);
        fputc(',', f);
        csv_text(f, v[i].date);
        for (int k = 0; k < NEED_NUM; k++) {
            fputc(',', f);
            csv_num(f, v[i].num[k]);
        }
        fputc(',', f);
        csv_text(f, v[i].text);
        fputs("\r\n", f);
    }
    *rows = (int)n;
    store_meetings_needs_free(v, n);
    return 0;
}

int meetings_export(Store *st, const char *path, int kind, int *rows, CpErr *err)
{
    size_t len = strlen(path) + 16;
    char *tmp = xmalloc(len);
    snprintf(tmp, len, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        free(tmp);
        return cp_err_set(err, "%s: cannot write", path);
    }
    int n = 0;
    int rc = kind == MEET_CSV_NEEDS ? write_needs(st, f, &n, err) : write_meetings(st, f, &n, err);
    if (fclose(f) != 0 && rc == 0)
        rc = cp_err_set(err, "%s: write failed", path);
    if (rc == 0 && rename(tmp, path) != 0)
        rc = cp_err_set(err, "%s: cannot rename the temporary file", path);
    if (rc < 0)
        unlink(tmp);
    free(tmp);
    if (rows)
        *rows = n;
    return rc;
}

/* ---- whom to ask ---- */

static int is_student(const PlanUser *u)
{
    return !u->role || (strcmp(u->role, "professor") != 0 && strcmp(u->role, "staff") != 0);
}

/* The candidate z rows of group g into rows; returns how many. Someone
 * whose roster end is past (before now: the end of the data, the
 * projection's t0) is no one to invite. */
static int group_rows(const Plan *p, int g, int64_t now, int *rows)
{
    int n = 0;
    for (int i = 0; i < p->nusers; i++) {
        const PlanUser *u = &p->users[i];
        if (u->group == g && u->profile >= 0 && u->zrow >= 0 && u->f.njobs >= p->min_jobs &&
            is_student(u) && u->leaves > now)
            rows[n++] = u->zrow;
    }
    return n;
}

int meetings_pick(const Plan *p, int per_profile, MeetPick **out)
{
    int k = p->fit.k, cap = 0, n = 0;
    *out = NULL;
    if (k <= 0 || p->nz <= 0)
        return 0;
    double *cent = xmalloc((size_t)k * FEAT_COUNT * sizeof *cent);
    for (int j = 0; j < k; j++)
        memcpy(cent + (size_t)j * FEAT_COUNT, p->fit.profiles[j].centroid_z, sizeof(double) * FEAT_COUNT);
    int *rows = xmalloc((size_t)p->nz * sizeof *rows);
    int *user_of = xmalloc((size_t)p->nz * sizeof *user_of);
    for (int i = 0; i < p->nusers; i++)
        if (p->users[i].zrow >= 0)
            user_of[p->users[i].zrow] = i;
    PickChoice *ch = xmalloc((size_t)k * PICK_MAX * sizeof *ch);
    int64_t now = p->win_end; /* the data's present: the same data, the same picks */
    for (int g = 0; g < p->ngroups; g++) {
        int nr = group_rows(p, g, now, rows);
        int m = pick_nearest(p->z, FEAT_COUNT, p->fit.labels, cent, k, rows, nr, per_profile, ch);
        if (n + m > cap) {
            cap = (n + m) * 2;
            *out = xrealloc(*out, (size_t)cap * sizeof **out);
        }
        for (int i = 0; i < m; i++)
            (*out)[n++] = (MeetPick){user_of[ch[i].row], g, ch[i]};
    }
    free(ch);
    free(user_of);
    free(rows);
    free(cent);
    return n;
}

/* ---- mismatches ---- */

int meetings_plan_user(const Plan *p, const char *name)
{
    for (int i = 0; i < p->nusers; i++)
        if (strcmp(p->users[i].name, name) == 0)
            return i;
    return -1;
}

static void fill_measured(const Plan *p, MeetMismatch *x)
{
    x->plan_user = meetings_plan_user(p, x->user);
    x->profile = -1;
    x->measured_gpus = 0; /* no job in the window: nothing used */
    x->measured_mem = x->measured_hours = NAN;
    if (x->plan_user < 0)
        return;
    const PlanUser *u = &p->users[x->plan_user];
    x->profile = u->profile;
    x->njobs = u->f.njobs;
    x->gpu_hours = u->f.gpu_hours;
    x->measured_gpus = u->f.raw[FEAT_CONC_MEAN];
    x->measured_mem = u->f.raw[FEAT_MEM_GIB] >= 0 ? u->f.raw[FEAT_MEM_GIB] : NAN;
    x->measured_hours = u->f.raw[FEAT_DUR_MEAN_H];
}

int meetings_mismatches(Store *st, const Plan *p, MeetMismatch **out, size_t *n, CpErr *err)
{
    StoreNeed *v;
    size_t nv;
    *out = NULL;
    *n = 0;
    if (store_meetings_needs(st, &v, &nv, err) < 0)
        return -1;
    *out = xcalloc(nv ? nv : 1, sizeof **out);
    for (size_t i = 0; i < nv; i++) {
        /* rows come by group, user, date: keep the last of each (user, group) */
        if (i + 1 < nv && strcmp(v[i].user, v[i + 1].user) == 0 &&
            strcmp(v[i].group, v[i + 1].group) == 0)
            continue;
        MeetMismatch *x = &(*out)[(*n)++];
        x->user = xstrdup(v[i].user);
        x->group = xstrdup(v[i].group);
        x->date = xstrdup(v[i].date);
        x->stated_gpus = v[i].num[NEED_GPUS];
        x->stated_mem = v[i].num[NEED_MEM];
        x->stated_hours = v[i].num[NEED_HOURS];
        fill_measured(p, x);
        x->gpus_off = meetings_gpus_off(x->stated_gpus, x->measured_gpus);
        x->mem_off = meetings_mem_off(x->stated_mem, x->measured_mem);
    }
    store_meetings_needs_free(v, nv);
    return 0;
}

void meetings_mismatches_free(MeetMismatch *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(m[i].user);
        free(m[i].group);
        free(m[i].date);
    }
    free(m);
}

/* ---- propagation ---- */

/* user's latest stated need with a GPU figure into *gpus, date, group. */
static int latest_need(Store *st, const char *user, MeetApply *out, CpErr *err)
{
    StoreNeed *v;
    size_t nv;
    if (store_meetings_needs(st, &v, &nv, err) < 0)
        return -1;
    int found = 0;
    for (size_t i = 0; i < nv; i++) {
        if (strcmp(v[i].user, user) != 0 || isnan(v[i].num[NEED_GPUS]))
            continue;
        if (found && strcmp(v[i].date, out->date) < 0)
            continue;
        found = 1;
        out->value = v[i].num[NEED_GPUS];
        snprintf(out->date, sizeof out->date, "%s", v[i].date);
        snprintf(out->group, sizeof out->group, "%s", v[i].group);
    }
    store_meetings_needs_free(v, nv);
    return found ? 0 : cp_err_set(err, "%s has no stated GPUs full-time (capplan meetings "
                                       "import-needs, or the Group view)", user);
}

int meetings_same_profile(const Plan *p, const char *group, int profile)
{
    int g = plan_group_index(p, group), n = 0;
    for (int i = 0; i < p->nusers; i++)
        n += p->users[i].group == g && p->users[i].profile == profile && is_student(&p->users[i]);
    return n;
}

void meetings_apply_reason(char *buf, size_t n, const char *reason, const char *user,
                           const char *group, const char *date, double value, int same_profile,
                           int profile)
{
    int has = reason && reason[0];
    snprintf(buf, n, "%s%sstated by %s (%s, %s): %g GPUs full-time, applied to the %d students "
             "of profile P%d in %s", has ? reason : "", has ? "; " : "", user, group, date, value,
             same_profile, profile + 1, group);
}

int meetings_apply(Store *st, const Plan *p, const char *user, const char *scenario,
                   const char *reason, const char *who, MeetApply *out, CpErr *err)
{
    memset(out, 0, sizeof *out);
    if (strcmp(scenario, "base") == 0)
        return cp_err_set(err, "'base' is the measured values: name a scenario to edit");
    int known = store_meetings_user_known(st, user, err);
    if (known < 0)
        return -1;
    if (!known)
        return cp_err_set(err, "unknown user '%s'", user);
    if (latest_need(st, user, out, err) < 0)
        return -1;
    int u = meetings_plan_user(p, user);
    if (u < 0 || p->users[u].profile < 0)
        return cp_err_set(err, "%s has no compute profile (too few jobs in the window)", user);
    out->profile = p->users[u].profile;
    out->same_profile = meetings_same_profile(p, out->group, out->profile);
    snprintf(out->key, sizeof out->key, "gpus.%d", out->profile + 1);
    int g = plan_group_index(p, out->group);
    out->measured = p->measured->gpus[out->profile];
    int e = store_plan_scenario_exists(st, scenario, err);
    if (e < 0 || (e == 0 && store_plan_scenario_new(st, scenario, NULL, who, err) < 0))
        return -1;
    out->created = e == 0;
    char why[512];
    meetings_apply_reason(why, sizeof why, reason, user, out->group, out->date, out->value,
                          out->same_profile, out->profile);
    /* the group's own value for the profile: other groups keep theirs */
    return store_plan_param_set(st, scenario, out->key, g >= 0 ? out->group : NULL, out->value,
                                out->measured, plan_key_label(p, out->key), why, who, err);
}
