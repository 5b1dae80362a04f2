#include "tests/lib/testutil.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/cp.h"

int tu_have_shared(void)
{
    const char *root = getenv("CAPPLAN_SHARED");
    char data[1024];
    struct stat sb;
    snprintf(data, sizeof data, "%s/data", root && root[0] ? root : "../shared");
    return stat(data, &sb) == 0 && S_ISDIR(sb.st_mode);
}

const char *tu_shared(const char *rel)
{
    static char buf[1024];
    const char *root = getenv("CAPPLAN_SHARED");
    if (!tu_have_shared()) {
        printf("SKIP: needs %s: ../shared/data not found, set CAPPLAN_SHARED\n", rel);
        fflush(stdout);
        skip();
    }
    snprintf(buf, sizeof buf, "%s/%s", root && root[0] ? root : "../shared", rel);
    return buf;
}

void tu_remove_db(const char *path)
{
    char side[1100];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

char *tu_temp_path(const char *suffix)
{
    char tmpl[] = "/tmp/capplan-test-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        abort();
    close(fd);
    unlink(tmpl);
    size_t n = strlen(tmpl) + strlen(suffix) + 1;
    char *p = xmalloc(n);
    snprintf(p, n, "%s%s", tmpl, suffix);
    return p;
}

char *tu_write_temp(const char *text, size_t n)
{
    char *p = tu_temp_path(".txt");
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0)
        abort();
    return p;
}

static void copy(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

static int keep(void *ctx, const CpJobRec *r, CpErr *err)
{
    (void)err;
    TuSink *s = ctx;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->jobs = xrealloc(s->jobs, (size_t)s->cap * sizeof *s->jobs);
    }
    TuJob *j = &s->jobs[s->n++];
    memset(j, 0, sizeof *j);
    copy(j->cluster, sizeof j->cluster, r->cluster);
    copy(j->job_id, sizeof j->job_id, r->job_id);
    copy(j->user, sizeof j->user, r->user);
    copy(j->account, sizeof j->account, r->account);
    copy(j->partition, sizeof j->partition, r->partition);
    copy(j->state_raw, sizeof j->state_raw, r->state_raw);
    copy(j->job_name, sizeof j->job_name, r->job_name);
    copy(j->gpu_type, sizeof j->gpu_type, r->gpu_type);
    j->has_step = r->step != NULL;
    copy(j->step, sizeof j->step, r->step);
    j->rec = *r;
    return 0;
}

CpJobSink tu_sink(TuSink *s)
{
    memset(s, 0, sizeof *s);
    CpJobSink k = {keep, s};
    return k;
}

void tu_sink_free(TuSink *s)
{
    free(s->jobs);
    memset(s, 0, sizeof *s);
}

const TuJob *tu_find(const TuSink *s, const char *id, int nth)
{
    int seen = 0;
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->jobs[i].job_id, id) == 0 && !s->jobs[i].has_step && ++seen >= nth)
            return &s->jobs[i];
    return NULL;
}

static void on_reject(void *ctx, const char *msg)
{
    TuSink *s = ctx;
    s->rejected++;
    copy(s->last_reject, sizeof s->last_reject, msg);
}

void tu_read_ctx(CpReadCtx *rc, TuSink *s, const char *path)
{
    memset(rc, 0, sizeof *rc);
    rc->path = path;
    rc->sink = tu_sink(s);
    rc->reject = on_reject;
    rc->reject_ctx = s;
}
