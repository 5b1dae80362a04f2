#include "data/store/store_bind.h"

#include <string.h>

enum { K_NONE, K_NULL, K_INT, K_DOUBLE, K_TEXT };

void job_bind_init(JobBind *b, sqlite3_stmt *s)
{
    memset(b, 0, sizeof *b);
    b->stmt = s;
}

static void put_null(JobBind *b, int i)
{
    if (b->kind[i] == K_NULL)
        return;
    sqlite3_bind_null(b->stmt, i);
    b->kind[i] = K_NULL;
}

static void put_int(JobBind *b, int i, int64_t v)
{
    if (b->kind[i] == K_INT && b->bits[i] == v)
        return;
    sqlite3_bind_int64(b->stmt, i, v);
    b->kind[i] = K_INT;
    b->bits[i] = v;
}

static void put_double(JobBind *b, int i, double v)
{
    int64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (b->kind[i] == K_DOUBLE && b->bits[i] == bits)
        return;
    sqlite3_bind_double(b->stmt, i, v);
    b->kind[i] = K_DOUBLE;
    b->bits[i] = bits;
}

static void put_text(JobBind *b, int i, const char *t)
{
    sqlite3_bind_text(b->stmt, i, t, -1, SQLITE_STATIC);
    b->kind[i] = K_TEXT;
}

static void put_time(JobBind *b, int i, int64_t t)
{
    if (t == CP_TIME_NONE)
        put_null(b, i);
    else
        put_int(b, i, t);
}

static void put_num(JobBind *b, int i, double v)
{
    if (v < 0)
        put_null(b, i);
    else
        put_double(b, i, v);
}

static void put_int_unknown(JobBind *b, int i, int64_t v, int64_t unknown)
{
    if (v == unknown)
        put_null(b, i);
    else
        put_int(b, i, v);
}

static void put_text_or_null(JobBind *b, int i, const char *t)
{
    if (t[0])
        put_text(b, i, t);
    else
        put_null(b, i);
}

void job_bind(JobBind *b, int64_t import_id, const CpJobRec *r,
              const int64_t ids[JOB_BIND_NIDS], uint64_t hash, int final)
{
    put_int(b, 1, ids[JOB_BIND_CLUSTER]);
    put_int(b, 2, r->job_raw);
    put_int(b, 3, r->submit == CP_TIME_NONE ? 0 : r->submit);
    put_text(b, 4, r->job_id);
    put_int_unknown(b, 5, r->array_job, 0);
    put_int_unknown(b, 6, r->array_task, -1);
    put_int_unknown(b, 7, ids[JOB_BIND_USER], 0);
    put_int_unknown(b, 8, ids[JOB_BIND_ACCOUNT], 0);
    put_int_unknown(b, 9, ids[JOB_BIND_PARTITION], 0);
    put_int_unknown(b, 10, ids[JOB_BIND_QOS], 0);
    put_text(b, 11, r->job_name);
    put_int(b, 12, (int)r->state);
    if (strcmp(r->state_raw, jobrec_state_name(r->state)) == 0)
        put_null(b, 13); /* raw text kept only when it says more */
    else
        put_text(b, 13, r->state_raw);
    put_int_unknown(b, 14, r->exit_code, -1);
    put_int_unknown(b, 15, r->exit_signal, -1);
    put_time(b, 16, r->eligible);
    put_time(b, 17, r->start);
    put_time(b, 18, r->end);
    put_int_unknown(b, 19, r->elapsed, CP_DUR_UNKNOWN);
    put_int_unknown(b, 20, r->timelimit, CP_DUR_UNKNOWN);
    put_int_unknown(b, 21, r->nnodes, -1);
    put_int_unknown(b, 22, r->ncpus, -1);
    put_num(b, 23, r->req_mem_mib);
    put_num(b, 24, r->max_rss_mib);
    put_double(b, 25, r->gpus);
    put_num(b, 26, r->req_gpus);
    put_text_or_null(b, 27, r->gpu_type);
    put_num(b, 28, r->gpu_mem_gib);
    put_int(b, 29, r->gpu_mem_gib >= 0 ? 1 : 0);
    put_num(b, 30, r->gpu_util);
    put_num(b, 31, r->total_cpu_s);
    put_text_or_null(b, 32, r->nodelist);
    put_int(b, 33, (int64_t)hash);
    put_int(b, 34, import_id);
    put_int(b, 35, final);
    put_int_unknown(b, 36, r->cpu_milli, -1);
}

/* A REAL column's value as read back: NULL (-1) for a negative one, and
 * SQLite stores -0.0 as the integer 0. */
static double real_of(double v)
{
    return v < 0 ? -1 : v == 0 ? 0.0 : v;
}

void job_attempt(const CpJobRec *r, const int64_t ids[JOB_BIND_NIDS], int final,
                 StoreAttempt *a)
{
    a->id = 0;
    a->cluster_id = ids[JOB_BIND_CLUSTER];
    a->user_id = ids[JOB_BIND_USER];
    a->account_id = ids[JOB_BIND_ACCOUNT];
    a->partition_id = ids[JOB_BIND_PARTITION];
    a->job_raw = r->job_raw;
    a->submit = r->submit == CP_TIME_NONE ? 0 : r->submit;
    a->eligible = r->eligible;
    a->start = r->start;
    a->end = r->end;
    a->elapsed = r->elapsed;
    a->timelimit = r->timelimit;
    a->ncpus = r->ncpus;
    a->cpu_milli = r->cpu_milli;
    a->gpus = r->gpus == 0 ? 0.0 : r->gpus;
    a->req_mem_mib = real_of(r->req_mem_mib);
    a->max_rss_mib = real_of(r->max_rss_mib);
    a->gpu_mem_gib = real_of(r->gpu_mem_gib);
    a->gpu_util = real_of(r->gpu_util);
    a->total_cpu_s = real_of(r->total_cpu_s);
    a->gpu_type = r->gpu_type;
    a->gpu_mem_source = r->gpu_mem_gib >= 0 ? 1 : 0;
    a->state = (int)r->state;
    a->final = final;
}
