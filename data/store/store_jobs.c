/* store_jobs: an attempt written (store_job_put): its names turned into ids,
 * its usage added to the transaction's sums, its earlier attempts found and
 * ranked, its row inserted or updated, and the feed told. The Store's insides:
 * store_int.h; opening and transactions: store.c. */
#include "data/store/store_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/civil.h"

/* The delta of cluster id (grown on demand). */
static CountDelta *counts_slot(Store *st, int64_t id)
{
    size_t i = id > 0 ? (size_t)id : 0;
    if (i >= st->ncounts) {
        size_t n = i + 16;
        st->counts = xrealloc(st->counts, n * sizeof *st->counts);
        for (size_t k = st->ncounts; k < n; k++) {
            memset(&st->counts[k], 0, sizeof st->counts[k]);
            st->counts[k].hi = INT64_MIN;
        }
        st->ncounts = n;
    }
    st->counts[i].touched = 1;
    return &st->counts[i];
}

/* Widen the window by one attempt as data/store/store_stats.c reads it back: 32-bit
 * epoch seconds (0 unknown), elapsed else end - start. */
static void window_add(Store *st, const CpJobRec *r)
{
    int64_t sub = r->submit != CP_TIME_NONE && r->submit > 0 && r->submit <= UINT32_MAX
                      ? r->submit
                      : 0;
    int64_t start = r->start != CP_TIME_NONE && r->start > 0 && r->start <= UINT32_MAX
                        ? r->start
                        : 0;
    int64_t el = -1;
    if (r->elapsed != CP_DUR_UNKNOWN)
        el = r->elapsed > INT32_MAX ? INT32_MAX : r->elapsed < INT32_MIN ? INT32_MIN : r->elapsed;
    else if (start && r->end != CP_TIME_NONE && r->end > 0 && r->end >= start)
        el = r->end - start > INT32_MAX ? INT32_MAX : r->end - start;
    int64_t a = sub ? sub : start;
    int64_t b = start && el >= 0 ? start + el : start ? start : sub;
    if (a > 0 && (!st->win_lo || a < st->win_lo))
        st->win_lo = a;
    if (b > 0 && b > st->win_hi)
        st->win_hi = b;
}

/* The attempt just inserted for r, to the feed. */
static int feed_inserted(Store *st, const CpJobRec *r, const int64_t ids[DICT_COUNT], int final,
                         CpErr *err)
{
    StoreAttempt a;
    job_attempt(r, ids, final, &a);
    a.id = sqlite3_last_insert_rowid(st->db);
    return store_feed_insert(st->feed, &a, err);
}

/* Row id rewritten from r (its final flag kept), to the feed. */
static void feed_updated(Store *st, int64_t id, const CpJobRec *r, const int64_t ids[DICT_COUNT])
{
    StoreAttempt a;
    job_attempt(r, ids, 0, &a);
    a.id = id;
    store_feed_update(st->feed, &a);
}

/* An attempt from before store_watch_old's floor was written or gained
 * an attempt: what the feed's sinks extend no longer holds. */
static void note_old(Store *st)
{
    st->touched_old = 1;
    if (st->feed)
        store_feed_spoil(st->feed);
}

/* The name's last look-up, kept (a file repeats its cluster, partition and
 * QOS on most lines: issue 31 item 3). */
static void dict_keep(Store *st, int d, const char *name, size_t n, int64_t id)
{
    if (n >= sizeof st->dict_last[d].name)
        return;
    memcpy(st->dict_last[d].name, name, n);
    st->dict_last[d].n = n;
    st->dict_last[d].id = id;
}

/* Id of name in dictionary d, inserting it when new. 0 for "" (unknown). */
static int dict_id(Store *st, int d, const char *name, int64_t *id, CpErr *err)
{
    size_t n = strlen(name);
    if (n > 0 && n == st->dict_last[d].n && memcmp(name, st->dict_last[d].name, n) == 0) {
        *id = st->dict_last[d].id;
        return 0;
    }
    if (strmap_get(st->dict[d], name, n, id)) {
        dict_keep(st, d, name, n, *id);
        return 0;
    }
    sqlite3_stmt *s = st->dict_insert[d];
    sqlite3_bind_text(s, 1, name, (int)n, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return store_db_err(st, err, "add name");
    *id = sqlite3_last_insert_rowid(st->db);
    strmap_put(st->dict[d], name, n, *id);
    dict_keep(st, d, name, n, *id);
    return 0;
}

static UsageSums *usage_slot(Store *st, const UsageKey *k)
{
    int64_t idx;
    /* an attempt's first slot is most often its month's, the one before */
    if (st->last_usage < st->nusage && memcmp(&st->usage[st->last_usage].key, k, sizeof *k) == 0)
        return &st->usage[st->last_usage];
    if (strmap_get(st->usage_index, (const char *)k, sizeof *k, &idx)) {
        st->last_usage = (size_t)idx;
        return &st->usage[idx];
    }
    if (st->nusage == st->capusage) {
        st->capusage = st->capusage ? st->capusage * 2 : 1024;
        st->usage = xrealloc(st->usage, st->capusage * sizeof *st->usage);
    }
    UsageSums *u = &st->usage[st->nusage];
    memset(u, 0, sizeof *u);
    u->key = *k;
    strmap_put(st->usage_index, (const char *)k, sizeof *k, (int64_t)st->nusage);
    st->last_usage = st->nusage++;
    return u;
}

static int64_t next_month_start(int64_t month)
{
    int y = (int)(month / 100), mo = (int)(month % 100);
    return mo == 12 ? fields_epoch_of(y + 1, 1, 1, 0, 0, 0) : fields_epoch_of(y, mo + 1, 1, 0, 0, 0);
}

/* The month (YYYYMM) of epoch second t; the last one's span is kept
 * (most attempts of an import fall in the month of the one before). */
static int64_t month_of(Store *st, int64_t t)
{
    if (t >= st->month_lo && t < st->month_hi)
        return st->month;
    int y, mo, d, h, mi, s;
    fields_civil_of(t, &y, &mo, &d, &h, &mi, &s);
    st->month = (int64_t)y * 100 + mo;
    st->month_lo = fields_epoch_of(y, mo, 1, 0, 0, 0);
    st->month_hi = next_month_start(st->month);
    return st->month;
}

static UsageKey key_for(const UsageFacts *f, int64_t month)
{
    UsageKey k;
    memset(&k, 0, sizeof k);
    k.month = month;
    k.cluster_id = f->cluster_id;
    k.account_id = f->account_id;
    k.user_id = f->user_id;
    k.partition_id = f->partition_id;
    return k;
}

/* Add (sign = +1) or withdraw (-1) an attempt's contribution; is_job says
 * whether it is the final attempt that counts as the job. */
static void usage_apply(Store *st, const UsageFacts *f, int sign, int is_job, int hours_too)
{
    int64_t anchor = f->start != CP_TIME_NONE ? f->start : f->submit;
    if (anchor == CP_TIME_NONE || anchor <= 0)
        return;
    UsageKey k = key_for(f, month_of(st, anchor));
    UsageSums *u = usage_slot(st, &k);
    if (is_job) {
        u->jobs += sign;
        u->gpu_jobs += f->gpus > 0 ? sign : 0;
    }
    if (!hours_too)
        return;
    u->attempts += sign;
    u->preempted += f->state == CP_ST_PREEMPTED ? sign : 0;
    if (f->start != CP_TIME_NONE && f->submit != CP_TIME_NONE && f->submit > 0 &&
        f->start >= f->submit) {
        u->wait_s += sign * (double)(f->start - f->submit);
        u->waited += sign;
    }
    /* A run whose start is unknown but whose length is known (SWF's wait
     * -1) is placed from its submit time (#14). */
    int64_t run_start = f->start != CP_TIME_NONE ? f->start
                        : f->elapsed > 0 && f->submit > 0 ? f->submit
                                                           : CP_TIME_NONE;
    int64_t run_end = f->elapsed >= 0 && run_start != CP_TIME_NONE ? run_start + f->elapsed : f->end;
    if (run_start == CP_TIME_NONE || run_end == CP_TIME_NONE || run_end <= run_start)
        return;
    double ncpus = f->cpus > 0 ? f->cpus : 0;
    if (f->state == CP_ST_PREEMPTED)
        u->gpu_hours_lost += sign * f->gpus * (double)(run_end - run_start) / 3600.0;
    for (int64_t t = run_start; t < run_end;) { /* pro rata per month */
        int64_t m = month_of(st, t);
        int64_t stop = next_month_start(m);
        if (stop > run_end)
            stop = run_end;
        UsageKey km = key_for(f, m);
        UsageSums *um = usage_slot(st, &km);
        double h = (double)(stop - t) / 3600.0;
        um->gpu_hours += sign * f->gpus * h;
        um->cpu_hours += sign * ncpus * h;
        t = stop;
    }
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return strmap_hash(h, s, strlen(s) + 1);
}

/* The record's hash: its names, not their ids (which depend on the order
 * the names came in), so that it breaks ties the same in any order. */
static uint64_t record_hash(const CpJobRec *r, const char *const names[DICT_COUNT])
{
    uint64_t h = 0;
    for (int d = 0; d < DICT_COUNT; d++)
        h = hash_str(h, names[d]);
    int64_t nums[] = {r->job_raw, r->array_job, r->array_task, r->state, r->exit_code,
                      r->exit_signal, r->submit, r->eligible, r->start, r->end, r->elapsed,
                      r->timelimit, r->nnodes, r->ncpus};
    double reals[] = {r->req_mem_mib, r->max_rss_mib, r->gpus, r->req_gpus, r->gpu_mem_gib,
                      r->gpu_util, r->total_cpu_s};
    h = strmap_hash(h, nums, sizeof nums);
    h = strmap_hash(h, reals, sizeof reals);
    h = hash_str(h, r->job_id);
    h = hash_str(h, r->job_name);
    h = hash_str(h, r->state_raw);
    h = hash_str(h, r->gpu_type);
    h = hash_str(h, r->nodelist);
    if (r->cpu_milli >= 0) /* only then: the hash of a whole-CPU record as before #29 */
        h = strmap_hash(h, &r->cpu_milli, sizeof r->cpu_milli);
    return h & 0x7fffffffffffffffULL;
}

uint64_t store_rec_hash(const CpJobRec *r, const char *default_cluster)
{
    const char *names[DICT_COUNT] = {r->cluster[0] ? r->cluster : default_cluster, r->user,
                                     r->account, r->partition, r->qos};
    return record_hash(r, names);
}

typedef struct Attempt {
    int64_t id, submit, hash;
    int final;
    UsageFacts facts;
} Attempt;

/* What a record of one attempt says, to choose between two snapshots of
 * it: how far it got (pending, running, requeued, final), when it last
 * says something happened, how many fields it knows, and its hash to
 * break the last ties. The greater wins, whatever the order of imports. */
typedef struct Rank {
    int stage;
    int64_t last, known;
    uint64_t hash;
} Rank;

static int stage_of(int state)
{
    if (jobrec_final((CpState)state))
        return 3;
    return state == CP_ST_REQUEUED ? 2 : state == CP_ST_PENDING ? 0 : 1;
}

static int rank_cmp(const Rank *a, const Rank *b)
{
    if (a->stage != b->stage)
        return a->stage < b->stage ? -1 : 1;
    if (a->last != b->last)
        return a->last < b->last ? -1 : 1;
    if (a->known != b->known)
        return a->known < b->known ? -1 : 1;
    return a->hash < b->hash ? -1 : a->hash > b->hash;
}

/* KNOWN_COLS of a stored attempt (asked only when two records of it
 * differ); -1 on a database error. */
static int stored_known(Store *st, int64_t id, CpErr *err)
{
    sqlite3_stmt *s = st->known_stmt;
    sqlite3_bind_int64(s, 1, id);
    int known = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
    sqlite3_reset(s);
    if (known < 0)
        store_db_err(st, err, "look up job");
    return known;
}

/* KNOWN_COLS of the row job_bind would write for r. */
static int record_known(const CpJobRec *r, const int64_t ids[DICT_COUNT])
{
    return (ids[DICT_USER] != 0) + (ids[DICT_ACCOUNT] != 0) + (ids[DICT_PARTITION] != 0) +
           (ids[DICT_QOS] != 0) + (r->job_name[0] != '\0') + (r->exit_code != -1) +
           (r->eligible != CP_TIME_NONE) + (r->start != CP_TIME_NONE) +
           (r->end != CP_TIME_NONE) + (r->elapsed != CP_DUR_UNKNOWN) +
           (r->timelimit != CP_DUR_UNKNOWN) + (r->nnodes != -1) + (r->ncpus != -1) +
           (r->req_mem_mib >= 0) + (r->max_rss_mib >= 0) + (r->req_gpus >= 0) +
           (r->gpu_type[0] != '\0') + (r->total_cpu_s >= 0) + (r->nodelist[0] != '\0') +
           (r->cpu_milli >= 0); /* a fraction of a CPU says more than it rounded (#29) */
}

static int64_t col_time(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? CP_TIME_NONE : sqlite3_column_int64(s, i);
}

/* Highest job_raw stored for a cluster: a record above it is new, and
 * needs no look-up (sacct lists jobs in id order, so most records are). */
static int64_t *max_raw_slot(Store *st, int64_t cluster_id, CpErr *err, int *rc)
{
    *rc = 0;
    if ((size_t)cluster_id >= st->nmax_raw) {
        size_t n = (size_t)cluster_id + 16;
        st->max_raw = xrealloc(st->max_raw, n * sizeof *st->max_raw);
        for (size_t i = st->nmax_raw; i < n; i++)
            st->max_raw[i] = -1;
        st->nmax_raw = n;
    }
    int64_t *slot = &st->max_raw[cluster_id];
    if (*slot == -1 && st->keys) /* a first load: nothing stored before it */
        *slot = INT64_MIN;
    if (*slot == -1) {
        sqlite3_stmt *s = st->max_raw_stmt;
        sqlite3_bind_int64(s, 1, cluster_id);
        if (sqlite3_step(s) != SQLITE_ROW)
            *rc = store_db_err(st, err, "look up jobs");
        else
            *slot = sqlite3_column_type(s, 0) == SQLITE_NULL ? INT64_MIN
                                                              : sqlite3_column_int64(s, 0);
        sqlite3_reset(s);
    }
    return slot;
}

/* When an attempt's record last says something happened. */
static int64_t last_time(int64_t submit, int64_t start, int64_t end, int64_t elapsed)
{
    if (end != CP_TIME_NONE)
        return end;
    if (start != CP_TIME_NONE)
        return elapsed >= 0 ? start + elapsed : start;
    return submit;
}

/* The latest an attempt can end: when its record says it ended, or, for
 * an attempt still running in its snapshot (which may come after a newer
 * one), its start plus its time limit (no end for UNLIMITED). */
static int64_t latest_end(const UsageFacts *f)
{
    int64_t last = last_time(f->submit, f->start, f->end, f->elapsed);
    if (stage_of(f->state) != 1 || f->start == CP_TIME_NONE)
        return last;
    if (f->timelimit == CP_DUR_UNLIMITED)
        return INT64_MAX / 2;
    return f->timelimit > 0 && f->start + f->timelimit > last ? f->start + f->timelimit : last;
}

/* Two records with one job id are attempts of one job when one was
 * submitted while the other was known, or as it ended: Slurm resubmits a
 * requeued job at the second its previous attempt ends (job 19 of
 * ../shared/data/slurm-sandbox, in text and JSON alike). Otherwise Slurm
 * reused the id (a reset database, ids wrapping round): different jobs. */
static int same_job(const UsageFacts *a, const CpJobRec *r)
{
    const int64_t slack = 5; /* seconds of clock skew between records */
    UsageFacts rf = {.submit = r->submit, .start = r->start, .end = r->end,
                     .elapsed = r->elapsed, .state = (int)r->state, .timelimit = r->timelimit};
    int64_t a_last = latest_end(a);
    int64_t r_last = latest_end(&rf);
    if (r->submit == CP_TIME_NONE || a->submit == CP_TIME_NONE)
        return 1;
    return (r->submit >= a->submit && r->submit <= a_last + slack) ||
           (a->submit >= r->submit && a->submit <= r_last + slack);
}

static int is_pending_range(const char *job_id)
{
    const char *u = strchr(job_id, '_');
    return u && u[1] == '[';
}

/* Both ids name tasks of one array ("12_3", "12_[3-5]"). */
static int same_array(const char *a, const char *b)
{
    const char *ua = strchr(a, '_'), *ub = strchr(b, '_');
    return ua && ub && ua - a == ub - b && memcmp(a, b, (size_t)(ua - a)) == 0;
}

/* The stored attempts that matter: the one with this submit time and the
 * latest one. Slurm lists an array's pending tasks as one record N_[a-b]
 * with the raw id and submit time of the task that runs last: once that
 * task N_b arrives it replaces the range's record (same attempt), and a
 * range arriving after its task is known sets *superseded. Returns 0 on
 * success. */
/* One stored attempt (s's row of ATTEMPT_COLS) weighed for r: find_attempts'
 * loop body. */
static void weigh_attempt(sqlite3_stmt *s, int64_t cluster_id, const CpJobRec *r, int64_t submit,
                          Attempt *same, Attempt *latest, int *superseded)
{
    Attempt a;
    a.id = sqlite3_column_int64(s, 0);
    a.submit = sqlite3_column_int64(s, 1);
    a.final = sqlite3_column_int(s, 2);
    a.hash = sqlite3_column_int64(s, 3);
    a.facts.cluster_id = cluster_id;
    a.facts.account_id = sqlite3_column_int64(s, 4);
    a.facts.user_id = sqlite3_column_int64(s, 5);
    a.facts.partition_id = sqlite3_column_int64(s, 6);
    a.facts.submit = a.submit;
    a.facts.start = col_time(s, 7);
    a.facts.end = col_time(s, 8);
    a.facts.elapsed = sqlite3_column_type(s, 9) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 9);
    a.facts.gpus = sqlite3_column_double(s, 10);
    a.facts.cpus = sqlite3_column_type(s, 11) == SQLITE_NULL ? -1 : sqlite3_column_double(s, 11);
    a.facts.state = sqlite3_column_int(s, 12);
    a.facts.timelimit =
        sqlite3_column_type(s, 14) == SQLITE_NULL ? CP_DUR_UNKNOWN : sqlite3_column_int64(s, 14);
    const char *jid = (const char *)sqlite3_column_text(s, 13);
    if (!jid)
        return;
    if (strcmp(jid, r->job_id) != 0) {
        if (!same_array(jid, r->job_id))
            return; /* another task of an array sharing the raw id */
        if (is_pending_range(r->job_id)) {
            *superseded = 1; /* the range's task is known by now */
            return;
        }
        if (!is_pending_range(jid))
            return;
        /* a pending range N_[a-b] turned into its task N_b: one attempt */
    }
    if (a.submit == submit) {
        *same = a;
    } else if (!same_job(&a.facts, r)) {
        return; /* the id came round again: another job */
    }
    if (!latest->id || a.submit > latest->submit)
        *latest = a;
}

/* A first load's look-up (st->keys): the rows the window names, by row id
 * in the index's order. Returns 1 when it answered, 0 when the window
 * cannot tell (the caller builds the index and asks SQLite), -1 on error. */
static int find_keyed(Store *st, int64_t cluster_id, const CpJobRec *r, int64_t submit,
                      Attempt *same, Attempt *latest, int *superseded, CpErr *err)
{
    int64_t ids[STORE_KEYS_MAX];
    int n = store_keys_find(st->keys, cluster_id, r->job_raw, ids);
    if (n < 0)
        return 0;
    if (n && !st->attempt_by_id &&
        store_prepare(st, "SELECT " ATTEMPT_COLS " FROM jobs WHERE id=?1", &st->attempt_by_id, err) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        sqlite3_stmt *s = st->attempt_by_id;
        sqlite3_bind_int64(s, 1, ids[i]);
        int rc = sqlite3_step(s);
        if (rc == SQLITE_ROW)
            weigh_attempt(s, cluster_id, r, submit, same, latest, superseded);
        sqlite3_reset(s);
        if (rc != SQLITE_ROW)
            return store_db_err(st, err, "look up job");
    }
    return 1;
}

/* The stored attempts that matter: the one with this submit time and the
 * latest one. Slurm lists an array's pending tasks as one record N_[a-b]
 * with the raw id and submit time of the task that runs last: once that
 * task N_b arrives it replaces the range's record (same attempt), and a
 * range arriving after its task is known sets *superseded. Returns 0 on
 * success. */
static int find_attempts(Store *st, int64_t cluster_id, const CpJobRec *r, int64_t submit,
                         Attempt *same, Attempt *latest, int *superseded, CpErr *err)
{
    sqlite3_stmt *s = st->lookup_attempts;
    same->id = latest->id = 0;
    *superseded = 0;
    if (st->keys) {
        int got = find_keyed(st, cluster_id, r, submit, same, latest, superseded, err);
        if (got != 0)
            return got < 0 ? -1 : 0;
        if (store_keys_index(st, err) < 0) /* the window cannot tell: the index, now */
            return -1;
    }
    sqlite3_bind_int64(s, 1, cluster_id);
    sqlite3_bind_int64(s, 2, r->job_raw);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        weigh_attempt(s, cluster_id, r, submit, same, latest, superseded);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, "look up job");
}

static int step_done(Store *st, sqlite3_stmt *s, CpErr *err, const char *what)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, what);
}

/* Two snapshots of one attempt: 1 when r (hashed hash) says more than the
 * stored record, 0 when the stored one stays, -1 on a database error. */
static int says_more(Store *st, const Attempt *had, const CpJobRec *r,
                     const int64_t ids[DICT_COUNT], uint64_t hash, CpErr *err)
{
    if ((uint64_t)had->hash == hash)
        return 0;
    int known = stored_known(st, had->id, err);
    if (known < 0)
        return -1;
    const UsageFacts *f = &had->facts;
    Rank old = {stage_of(f->state), last_time(had->submit, f->start, f->end, f->elapsed), known,
                (uint64_t)had->hash};
    Rank got = {stage_of((int)r->state), last_time(had->submit, r->start, r->end, r->elapsed),
                record_known(r, ids), hash};
    return rank_cmp(&got, &old) > 0;
}

int store_job_put(Store *st, int64_t import_id, const char *default_cluster,
                  const CpJobRec *r, StoreJobCounts *counts, CpErr *err)
{
    int64_t ids[DICT_COUNT] = {0};
    if (!jobrec_finite(r))
        return cp_err_set(err, "job %s: a number is not finite", r->job_id);
    const char *names[DICT_COUNT] = {r->cluster[0] ? r->cluster : default_cluster, r->user,
                                     r->account, r->partition, r->qos};
    for (int d = 0; d < DICT_COUNT; d++)
        if (names[d][0] && dict_id(st, d, names[d], &ids[d], err) < 0)
            return -1;
    int64_t submit = r->submit == CP_TIME_NONE ? 0 : r->submit;
    uint64_t hash = r->rec_hash ? r->rec_hash : record_hash(r, names);
    UsageFacts f = {ids[DICT_CLUSTER], ids[DICT_ACCOUNT], ids[DICT_USER], ids[DICT_PARTITION],
                    r->submit, r->start, r->end, r->elapsed, r->gpus, jobrec_cpus(r), (int)r->state,
                    r->timelimit};
    Attempt same, latest;
    int rc, superseded = 0;
    int64_t *max_raw = max_raw_slot(st, ids[DICT_CLUSTER], err, &rc);
    if (rc < 0)
        return -1;
    if (r->job_raw > *max_raw) {
        same.id = latest.id = 0;
        *max_raw = r->job_raw;
    } else if (find_attempts(st, ids[DICT_CLUSTER], r, submit, &same, &latest, &superseded,
                             err) < 0) {
        return -1;
    }
    if (superseded && !same.id) {
        counts->unchanged++;
        return 0;
    }
    if (same.id) {
        int wins = says_more(st, &same, r, ids, hash, err);
        if (wins < 0)
            return -1;
        if (!wins) {
            counts->unchanged++;
            return 0;
        }
        if (same.id <= st->old_floor)
            note_old(st);
        usage_apply(st, &same.facts, -1, same.final, 1);
        job_bind(&st->update_bind, import_id, r, ids, hash, same.final);
        sqlite3_bind_int64(st->update_job, 37, same.id);
        if (step_done(st, st->update_job, err, "update job") < 0)
            return -1;
        if (st->feed)
            feed_updated(st, same.id, r, ids);
        usage_apply(st, &f, +1, same.final, 1);
        window_add(st, r);
        counts->updated++;
        return 0;
    }
    int final = !latest.id || submit > latest.submit;
    if (latest.id && latest.id <= st->old_floor)
        note_old(st);
    if (latest.id && !final) {
        st->late_attempts = 1; /* the feed hands attempts on in id order: lost */
        if (st->feed)
            store_feed_spoil(st->feed);
    }
    if (final && latest.id) {
        sqlite3_bind_int64(st->unset_final, 1, latest.id);
        if (step_done(st, st->unset_final, err, "update job") < 0)
            return -1;
        if (st->feed)
            store_feed_unfinal(st->feed, latest.id);
        usage_apply(st, &latest.facts, -1, 1, 0);
        counts_slot(st, ids[DICT_CLUSTER])->jobs--;
    }
    job_bind(&st->insert_bind, import_id, r, ids, hash, final);
    if (step_done(st, st->insert_job, err, "insert job") < 0)
        return -1;
    if (st->keys) /* before the feed's sinks insert rows of their own */
        store_keys_add(st->keys, ids[DICT_CLUSTER], r->job_raw, sqlite3_last_insert_rowid(st->db));
    if (st->feed && feed_inserted(st, r, ids, final, err) < 0)
        return -1;
    usage_apply(st, &f, +1, final, 1);
    window_add(st, r);
    CountDelta *cd = counts_slot(st, ids[DICT_CLUSTER]);
    cd->jobs += final;
    cd->attempts++;
    if (r->submit != CP_TIME_NONE) {
        if (r->submit > 0 && (!cd->lo || r->submit < cd->lo))
            cd->lo = r->submit;
        if (r->submit > cd->hi)
            cd->hi = r->submit;
    }
    counts->added++;
    return 0;
}

void store_watch_old(Store *st, int64_t floor)
{
    st->old_floor = floor;
    st->touched_old = 0;
    st->late_attempts = 0;
}

int store_touched_old(const Store *st)
{
    return st->touched_old;
}

int store_late_attempts(const Store *st)
{
    return st->late_attempts;
}

int store_job_put_as(Store *st, int64_t import_id, const char *cluster, const CpJobRec *rec,
                     StoreJobCounts *counts, CpErr *err)
{
    CpJobRec r = *rec;
    r.cluster = cluster;
    return store_job_put(st, import_id, cluster, &r, counts, err);
}

int store_link_metrics(Store *st, int64_t import_id, CpErr *err)
{
    if (store_scalar(st, "SELECT EXISTS(SELECT 1 FROM gpu_metrics)") != 1)
        return 0;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "UPDATE jobs SET gpu_mem_gib = m.gpu_mem_max_gib, gpu_mem_source = 2, "
                           "gpu_util = coalesce(m.gpu_util_mean, jobs.gpu_util) "
                           "FROM gpu_metrics m JOIN clusters c "
                           "ON (m.cluster = '' OR c.name = m.cluster) "
                           "WHERE jobs.import_id = ?1 AND jobs.cluster_id = c.id "
                           "AND m.job_key NOT GLOB '*[^0-9]*' "
                           "AND jobs.job_raw = CAST(m.job_key AS INTEGER) "
                           "AND m.gpu_mem_max_gib IS NOT NULL",
                           -1, &s, NULL) != SQLITE_OK)
        return store_db_err(st, err, "link GPU metrics");
    sqlite3_bind_int64(s, 1, import_id);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc == SQLITE_DONE && st->feed && sqlite3_changes(st->db) > 0)
        store_feed_spoil(st->feed); /* the import's attempts changed after the feed */
    return rc == SQLITE_DONE ? 0 : store_db_err(st, err, "link GPU metrics");
}
