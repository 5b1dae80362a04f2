#include "data/ingest/pipeline.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define BATCH_RECORDS 2048
#define NBATCHES 4

typedef struct Batch {
    CpJobRec recs[BATCH_RECORDS];
    size_t offs[BATCH_RECORDS][9]; /* string offsets into text */
    int n;
    CpBuf text;
} Batch;

typedef struct Pipe {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    Batch batches[NBATCHES];
    int full[NBATCHES];  /* ready for the consumer, in ring order */
    int head, tail;      /* producer fills tail, consumer reads head */
    int producer_done, consumer_failed;
    int owns_tail;       /* producer side: the tail batch is free and being filled */
    int produce_rc;
    CpErr produce_err;
    PipelineProduce produce;
    void *arg;
} Pipe;

enum { F_CLUSTER, F_JOBID, F_USER, F_ACCOUNT, F_PARTITION, F_QOS, F_NAME, F_NODES, F_STATE };

static const char **field_ptr(CpJobRec *r, int i)
{
    static const size_t off[F_STATE + 1] = { /* a table, not a jump per string */
        [F_CLUSTER] = offsetof(CpJobRec, cluster),   [F_JOBID] = offsetof(CpJobRec, job_id),
        [F_USER] = offsetof(CpJobRec, user),         [F_ACCOUNT] = offsetof(CpJobRec, account),
        [F_PARTITION] = offsetof(CpJobRec, partition), [F_QOS] = offsetof(CpJobRec, qos),
        [F_NAME] = offsetof(CpJobRec, job_name),     [F_NODES] = offsetof(CpJobRec, nodelist),
        [F_STATE] = offsetof(CpJobRec, state_raw)};
    return (const char **)(void *)((char *)r + off[i]);
}

/* Wait (producer side) until the tail batch is free; 0, or -1 if the
 * consumer failed. */
static int wait_free_tail(Pipe *p)
{
    pthread_mutex_lock(&p->mu);
    while (p->full[p->tail] && !p->consumer_failed)
        pthread_cond_wait(&p->cv, &p->mu);
    int failed = p->consumer_failed;
    pthread_mutex_unlock(&p->mu);
    return failed ? -1 : 0;
}

static void publish_tail(Pipe *p)
{
    pthread_mutex_lock(&p->mu);
    p->full[p->tail] = 1;
    p->tail = (p->tail + 1) % NBATCHES;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static int copy_record(void *ctx, const CpJobRec *r, CpErr *err)
{
    Pipe *p = ctx;
    if (!p->owns_tail) {
        if (wait_free_tail(p) < 0)
            return cp_err_set(err, "stopped");
        p->owns_tail = 1;
    }
    Batch *b = &p->batches[p->tail];
    int k = b->n++;
    b->recs[k] = *r;
    b->recs[k].step = NULL; /* records reaching a pipeline are folded jobs */
    size_t len[F_STATE + 1], total = 0;
    for (int i = 0; i <= F_STATE; i++)
        total += len[i] = strlen(*field_ptr(&b->recs[k], i)) + 1;
    cpbuf_reserve(&b->text, total); /* once: the strings are copied as they are */
    for (int i = 0; i <= F_STATE; i++) {
        b->offs[k][i] = b->text.len;
        memcpy(b->text.data + b->text.len, *field_ptr(&b->recs[k], i), len[i]);
        b->text.len += len[i];
    }
    b->text.data[b->text.len] = '\0';
    if (b->n == BATCH_RECORDS) {
        publish_tail(p);
        p->owns_tail = 0;
    }
    return 0;
}

static void *worker(void *arg)
{
    Pipe *p = arg;
    CpJobSink sink = {copy_record, p};
    int rc = p->produce(p->arg, sink, &p->produce_err);
    if (rc == 0 && p->owns_tail && p->batches[p->tail].n > 0)
        publish_tail(p);
    pthread_mutex_lock(&p->mu);
    p->produce_rc = rc;
    p->producer_done = 1;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Deliver one batch; pointers are fixed up now that the text is final. */
static int deliver(Batch *b, CpJobSink out, CpErr *err)
{
    for (int k = 0; k < b->n; k++) {
        CpJobRec *r = &b->recs[k];
        for (int i = 0; i <= F_STATE; i++)
            *field_ptr(r, i) = b->text.data + b->offs[k][i];
        if (out.job(out.ctx, r, err) < 0)
            return -1;
    }
    return 0;
}

static int consume(Pipe *p, CpJobSink out, CpErr *err)
{
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->full[p->head] && !p->producer_done)
            pthread_cond_wait(&p->cv, &p->mu);
        int ready = p->full[p->head];
        pthread_mutex_unlock(&p->mu);
        if (!ready)
            return 0; /* producer done and nothing left */
        Batch *b = &p->batches[p->head];
        int rc = deliver(b, out, err);
        b->n = 0;
        cpbuf_clear(&b->text);
        pthread_mutex_lock(&p->mu);
        p->full[p->head] = 0;
        p->head = (p->head + 1) % NBATCHES;
        if (rc < 0)
            p->consumer_failed = 1;
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (rc < 0)
            return -1;
    }
}

int pipeline_run(PipelineProduce produce, void *arg, CpJobSink out, CpErr *err)
{
    Pipe *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (int i = 0; i < NBATCHES; i++)
        cpbuf_init(&p->batches[i].text);
    p->produce = produce;
    p->arg = arg;
    pthread_t th;
    int rc;
    if (pthread_create(&th, NULL, worker, p) != 0) {
        rc = produce(arg, out, err); /* no thread: read on this one */
    } else {
        rc = consume(p, out, err);
        pthread_join(th, NULL);
        if (rc == 0 && p->produce_rc < 0) {
            *err = p->produce_err;
            rc = -1;
        }
    }
    for (int i = 0; i < NBATCHES; i++)
        cpbuf_done(&p->batches[i].text);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
    return rc;
}
