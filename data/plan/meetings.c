/* meetings: the meeting workflow (data/plan/meetings.h). */
#include "data/plan/meetings.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/profiles.h"
#include "data/plan/plan.h"
#include "data/store/store.h"
#include "data/store/store_plan.h"

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
