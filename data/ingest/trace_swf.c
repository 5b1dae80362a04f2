/* trace_swf: the Parallel Workloads Archive's Standard Workload Format.
 *
 * Header lines start with ';' ("; UnixStartTime: 946746636",
 * "; Installation: OSC"); each data line holds 18 whitespace-separated
 * numbers, -1 for unknown: 1 job number, 2 submit (s after UnixStartTime),
 * 3 wait, 4 run time, 5 allocated processors, 6 average CPU time,
 * 7 used memory (KB/proc), 8 requested processors, 9 requested time,
 * 10 requested memory (KB/proc), 11 status, 12 user, 13 group,
 * 14 executable, 15 queue, 16 partition, 17 preceding job, 18 think time.
 *
 * job_raw is the job number (field 1). UnixStartTime is an epoch (UTC):
 * the header's TimeZoneString only says where the machine was, so no
 * zone is applied. Logs are from the pre-GPU era: gpus 0.
 *
 * The partition is field 16, named by the header's "; Partition: N name"
 * lines (the number itself when unnamed), else the queue (field 15,
 * named by "; Queue: N name"). The cluster name is the header's whole
 * Installation (lower-cased), however long. */
#include "data/ingest/trace_rec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/ingest/fields.h"
#include "data/ingest/linereader.h"
#include "data/ingest/textenc.h"

#define SWF_FIELDS 18
#define SWF_MAX_LINE ((size_t)1 << 16) /* real lines are under 120 bytes */
#define SWF_NAME_MAX 64   /* a partition or queue name from the header */
#define SWF_MAX_NAMES 256 /* partitions or queues named by the header */

enum {
    F_JOB, F_SUBMIT, F_WAIT, F_RUN, F_PROCS, F_CPU, F_MEM, F_REQ_PROCS, F_REQ_TIME, F_REQ_MEM,
    F_STATUS, F_USER, F_GROUP, F_APP, F_QUEUE, F_PART, F_PREV, F_THINK
};

/* Field names as the SWF definition gives them, for messages. */
static const char *const swf_names[SWF_FIELDS] = {
    "job number",    "submit time",        "wait time",      "run time",
    "allocated processors", "average CPU time", "used memory", "requested processors",
    "requested time", "requested memory",  "status",         "user id",
    "group id",      "executable number",  "queue number",   "partition number",
    "preceding job", "think time",
};

/* Fields that must be whole numbers (identifiers and codes). */
static const unsigned char swf_integral[SWF_FIELDS] = {
    [F_JOB] = 1, [F_STATUS] = 1, [F_USER] = 1, [F_GROUP] = 1, [F_APP] = 1,
    [F_QUEUE] = 1, [F_PART] = 1, [F_PREV] = 1,
};

/* Header names of partition or queue numbers. */
typedef struct SwfNames {
    int64_t num[SWF_MAX_NAMES];
    char name[SWF_MAX_NAMES][SWF_NAME_MAX];
    int n;
} SwfNames;

typedef struct Swf {
    CpReadCtx *rc;
    LineReader lr;
    CpErr *err;
    int64_t unix_start;
    int have_start;
    char *installation; /* owned, whole */
    char *computer;     /* owned, whole */
    char *cluster;      /* owned; chosen at the first job */
    SwfNames partitions, queues;
    char *tok[SWF_FIELDS];
    double val[SWF_FIELDS];  /* every field as a number */
    int64_t ival[SWF_FIELDS]; /* the integral ones exactly */
} Swf;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* s[0..n) trimmed and lower-cased, whole; caller frees. */
static char *name_dup(const char *s, size_t n)
{
    while (n > 0 && is_space(*s))
        s++, n--;
    while (n > 0 && is_space(s[n - 1]))
        n--;
    char *out = xstrndup(s, n);
    for (size_t i = 0; i < n; i++)
        if (out[i] >= 'A' && out[i] <= 'Z')
            out[i] = (char)(out[i] + 32);
    return out;
}

/* The cluster name: the header's Installation, else its Computer, else
 * the file's base name without extension ("swf" for standard input). */
static void swf_pick_cluster(Swf *s)
{
    if (s->installation || s->computer) {
        s->cluster = xstrdup(s->installation ? s->installation : s->computer);
        return;
    }
    const char *p = s->rc->path;
    if (strcmp(p, "-") == 0) {
        s->cluster = xstrdup("swf");
        return;
    }
    const char *slash = strrchr(p, '/'), *base = slash ? slash + 1 : p;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    s->cluster = name_dup(base, n);
}

/* "1  pbatch" (a Partition or Queue header's value): remember the name. */
static void swf_name_number(SwfNames *names, const char *v, size_t n)
{
    const char *p = v, *end = v + n;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    int64_t num;
    if (p == v || fields_int(v, (size_t)(p - v), &num, NULL) < 0 || names->n == SWF_MAX_NAMES)
        return;
    while (p < end && is_space(*p))
        p++;
    size_t len = (size_t)(end - p);
    if (len == 0 || len >= SWF_NAME_MAX || textenc_utf8_bad(p, len) != len)
        return;
    names->num[names->n] = num;
    memcpy(names->name[names->n], p, len);
    names->name[names->n][len] = '\0';
    names->n++;
}

/* The header's name for num, NULL when it names none. */
static const char *swf_name_of(const SwfNames *names, int64_t num)
{
    for (int i = 0; i < names->n; i++)
        if (names->num[i] == num)
            return names->name[i];
    return NULL;
}

/* A header line "; Key: value". Returns -1 with err filled only for a
 * UnixStartTime that is not a number. */
static int swf_header(Swf *s, const char *line, size_t len)
{
    const char *p = line + 1, *end = line + len;
    while (p < end && is_space(*p))
        p++;
    const char *colon = memchr(p, ':', (size_t)(end - p));
    if (!colon)
        return 0;
    size_t klen = (size_t)(colon - p);
    const char *v = colon + 1;
    while (v < end && is_space(*v))
        v++;
    size_t vlen = (size_t)(end - v);
    while (vlen > 0 && is_space(v[vlen - 1]))
        vlen--;
    if (klen == 13 && memcmp(p, "UnixStartTime", 13) == 0) {
        if (fields_int(v, vlen, &s->unix_start, NULL) < 0)
            return cp_err_set(s->err, "%s:%lld: bad UnixStartTime '%.*s'", trace_path(s->rc),
                              (long long)s->lr.lineno, (int)(vlen > 40 ? 40 : vlen), v);
        s->have_start = 1;
    } else if (textenc_utf8_bad(v, vlen) != vlen) {
        CpErr why;
        textenc_bad_reason(v, textenc_utf8_bad(v, vlen), &why);
        return cp_err_set(s->err, "%s:%lld: header %.*s: %s", trace_path(s->rc),
                          (long long)s->lr.lineno, (int)(klen > 40 ? 40 : klen), p, why.msg);
    } else if (klen == 12 && memcmp(p, "Installation", 12) == 0 && !s->installation) {
        s->installation = name_dup(v, vlen);
    } else if (klen == 8 && memcmp(p, "Computer", 8) == 0 && !s->computer) {
        s->computer = name_dup(v, vlen);
    } else if (klen == 9 && memcmp(p, "Partition", 9) == 0) {
        swf_name_number(&s->partitions, v, vlen);
    } else if (klen == 5 && memcmp(p, "Queue", 5) == 0) {
        swf_name_number(&s->queues, v, vlen);
    }
    return 0;
}

/* Split line in place on white space; returns the number of fields found
 * (SWF_FIELDS + 1 means "more than SWF_FIELDS"). */
static int swf_split(Swf *s, char *line)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p && is_space(*p))
            p++;
        if (!*p)
            return n;
        if (n == SWF_FIELDS)
            return n + 1;
        s->tok[n++] = p;
        while (*p && !is_space(*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
}

/* Parse the 18 fields into s->val. On a bad one, reject the line. Returns
 * 0 when valid, 1 when rejected, -1 to stop. */
static int swf_values(Swf *s, int64_t line)
{
    for (int i = 0; i < SWF_FIELDS; i++) {
        CpErr why;
        size_t n = strlen(s->tok[i]);
        int bad = swf_integral[i] ? fields_int(s->tok[i], n, &s->ival[i], &why)
                                  : fields_double(s->tok[i], n, &s->val[i], &why);
        if (!bad && swf_integral[i])
            s->val[i] = (double)s->ival[i];
        if (!bad && !isfinite(s->val[i]))
            bad = cp_err_set(&why, "bad number '%.40s'", s->tok[i]);
        /* a time or a length beyond what a log can hold (a run time of 300
         * digits would wrap round when rounded to seconds) (#29) */
        if (!bad && (i == F_SUBMIT || i == F_WAIT || i == F_RUN || i == F_REQ_TIME) &&
            s->val[i] > (i == F_SUBMIT ? 4e9 : (double)CP_MAX_DURATION_S))
            bad = cp_err_set(&why, "%s '%.40s%s' out of range (above %s)",
                             i == F_SUBMIT ? "time" : "duration", s->tok[i], n > 40 ? "..." : "",
                             i == F_SUBMIT ? "4e9 s" : "10 years");
        if (bad) {
            char field[48];
            snprintf(field, sizeof field, "%d (%s)", i + 1, swf_names[i]);
            return reader_reject(s->rc, s->err, line, field, why.msg) < 0 ? -1 : 1;
        }
    }
    return 0;
}

static CpState swf_state(int64_t status)
{
    switch (status) {
    case 1: /* completed */
    case 3: /* last partial execution, completed */
        return CP_ST_COMPLETED;
    case 0: /* failed */
    case 4: /* last partial execution, failed */
        return CP_ST_FAILED;
    case 5:
        return CP_ST_CANCELLED;
    default: /* -1 unknown, 2 partial execution to be continued */
        return CP_ST_OTHER;
    }
}

/* Times: submit = UnixStartTime + field 2, start = submit + wait. A wait
 * of -1 is unknown: so are the start and the end (the run time stays
 * known, and the store places such a run's hours from its submit time). */
static void swf_times(const Swf *s, CpJobRec *r)
{
    const double *v = s->val;
    r->submit = v[F_SUBMIT] >= 0 ? s->unix_start + llround(v[F_SUBMIT]) : CP_TIME_NONE;
    if (r->submit != CP_TIME_NONE && v[F_WAIT] >= 0)
        r->start = r->submit + llround(v[F_WAIT]);
    r->elapsed = v[F_RUN] >= 0 ? llround(v[F_RUN]) : CP_DUR_UNKNOWN;
    if (r->start != CP_TIME_NONE && r->elapsed >= 0)
        r->end = r->start + r->elapsed;
    r->timelimit = v[F_REQ_TIME] >= 0 ? llround(v[F_REQ_TIME]) : CP_DUR_UNKNOWN;
}

/* Resources: allocated processors, else requested ones; requested memory
 * (KB per processor) times processors. Field 6 (average CPU time) is not
 * used: in the OSC log it is no CPU time (9.56 for a 16-processor job of
 * 2.5 hours). Field 7 (average memory per processor) is no peak: unused. */
static void swf_resources(const Swf *s, CpJobRec *r)
{
    const double *v = s->val;
    double procs = v[F_PROCS] >= 0 ? v[F_PROCS] : v[F_REQ_PROCS];
    r->ncpus = procs >= 0 && procs < INT32_MAX ? (int32_t)llround(procs) : -1;
    double req_procs = v[F_REQ_PROCS] >= 0 ? v[F_REQ_PROCS] : procs;
    if (v[F_REQ_MEM] >= 0 && req_procs >= 0)
        r->req_mem_mib = v[F_REQ_MEM] * req_procs / 1024.0;
    r->gpus = 0;
    r->req_gpus = 0;
}

/* Field 16 by its header name (or number), else the queue likewise. */
static const char *swf_partition(Swf *s)
{
    int f = s->ival[F_PART] >= 0 ? F_PART : s->ival[F_QUEUE] >= 0 ? F_QUEUE : -1;
    if (f < 0)
        return "";
    const char *name = swf_name_of(f == F_PART ? &s->partitions : &s->queues, s->ival[f]);
    return name ? name : s->tok[f];
}

static int swf_job(Swf *s, int64_t line)
{
    int rv = swf_values(s, line);
    if (rv != 0)
        return rv < 0 ? -1 : 0;
    CpJobRec r;
    jobrec_clear(&r);
    r.cluster = s->cluster;
    r.job_id = s->tok[F_JOB];
    r.job_raw = s->ival[F_JOB];
    r.user = s->val[F_USER] >= 0 ? s->tok[F_USER] : "";
    r.account = s->val[F_GROUP] >= 0 ? s->tok[F_GROUP] : "";
    r.partition = swf_partition(s);
    r.state_raw = s->tok[F_STATUS];
    r.state = swf_state(s->ival[F_STATUS]);
    swf_times(s, &r);
    swf_resources(s, &r);
    return trace_emit(s->rc, &r, s->err);
}

/* One data line. Returns 0 to go on, -1 to stop. */
static int swf_line(Swf *s, char *line)
{
    int64_t lineno = s->lr.lineno;
    if (!s->have_start)
        return cp_err_set(s->err,
                          "%s:%lld: no '; UnixStartTime:' header before the first job: "
                          "absolute times unknown",
                          trace_path(s->rc), (long long)lineno);
    if (!s->cluster)
        swf_pick_cluster(s);
    trace_count_row(s->rc, s->lr.bytes_read);
    int n = swf_split(s, line);
    if (n != SWF_FIELDS) {
        char why[64];
        if (n > SWF_FIELDS)
            snprintf(why, sizeof why, "more than %d fields", SWF_FIELDS);
        else
            snprintf(why, sizeof why, "expected %d fields, found %d", SWF_FIELDS, n);
        return reader_reject(s->rc, s->err, lineno, NULL, why);
    }
    return swf_job(s, lineno);
}

static int swf_blank(const char *line)
{
    while (*line && is_space(*line))
        line++;
    return *line == '\0';
}

static int swf_loop(Swf *s)
{
    char *line;
    size_t len;
    for (;;) {
        int got = lr_next(&s->lr, &line, &len);
        if (got == LR_EOF)
            return 0;
        if (got == LR_ERROR)
            return cp_err_set(s->err, "%s: read error", trace_path(s->rc));
        if (got == LR_TOO_LONG) {
            trace_count_row(s->rc, s->lr.bytes_read);
            if (reader_reject(s->rc, s->err, s->lr.lineno, NULL, "line too long") < 0)
                return -1;
            continue;
        }
        const char *p = line;
        while (is_space(*p))
            p++;
        if (*p == ';') {
            if (swf_header(s, p, len - (size_t)(p - line)) < 0)
                return -1;
        } else if (!swf_blank(line) && swf_line(s, line) < 0) {
            return -1;
        }
    }
}

int trace_swf_read(FILE *f, CpReadCtx *ctx, CpErr *err)
{
    Swf s;
    memset(&s, 0, sizeof s);
    s.rc = ctx;
    s.err = err;
    lr_init(&s.lr, f, SWF_MAX_LINE);
    int rc = swf_loop(&s);
    trace_progress_end(ctx, s.lr.bytes_read);
    lr_done(&s.lr);
    free(s.installation);
    free(s.computer);
    free(s.cluster);
    return rc;
}
