/* reader_cpu FILE [--no-fold]: the CPU time of an import's reader thread
 * alone (issue 31 item 3). Reads a sacct text file as `capplan import sacct`
 * does on its second thread (sacct_text_read, the steps folded, each job's
 * rec_hash, the pipeline's copy into batches) and hands the records to a
 * sink that only counts them: no database. Prints the records, the rejected
 * lines and the process's CPU time (user + system, ms); --no-fold stops
 * after the parse (each line's record counted, nothing folded or copied).
 * Built by `make reader-cpu` (build/release/bench/reader_cpu). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "core/jobrec.h"
#include "data/ingest/fold.h"
#include "data/ingest/pipeline.h"
#include "data/ingest/reader.h"
#include "data/ingest/sacct_text.h"
#include "data/store/store.h"

typedef struct Run {
    FILE *f;
    CpReadCtx rc;
    int fold;
    int64_t records;
    char fmt[64];
} Run;

static int count(void *ctx, const CpJobRec *r, CpErr *err)
{
    (void)r, (void)err;
    ((Run *)ctx)->records++;
    return 0;
}

static void add_hash(void *ctx, CpJobRec *r)
{
    (void)ctx;
    r->rec_hash = store_rec_hash(r, "default");
}

static int produce(void *arg, CpJobSink sink, CpErr *err)
{
    Run *run = arg;
    if (!run->fold) {
        run->rc.sink = (CpJobSink){count, run};
        return sacct_text_read(run->f, &run->rc, NULL, NULL, run->fmt, sizeof run->fmt, err);
    }
    Fold *fold = fold_new(sink);
    fold_on_emit(fold, add_hash, run);
    run->rc.sink = fold_sink(fold);
    int rc = sacct_text_read(run->f, &run->rc, NULL, NULL, run->fmt, sizeof run->fmt, err);
    if (rc == 0)
        rc = fold_flush(fold, err);
    fold_free(fold);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: reader_cpu FILE [--no-fold]\n");
        return 2;
    }
    Run run;
    memset(&run, 0, sizeof run);
    run.f = fopen(argv[1], "rb");
    if (!run.f) {
        perror(argv[1]);
        return 1;
    }
    run.rc.path = argv[1];
    run.fold = !(argc > 2 && strcmp(argv[2], "--no-fold") == 0);
    CpErr err;
    memset(&err, 0, sizeof err);
    int rc = pipeline_run(produce, &run, (CpJobSink){count, &run}, &err);
    fclose(run.f);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    if (rc < 0) {
        fprintf(stderr, "reader_cpu: %s\n", err.msg);
        return 1;
    }
    printf("records %lld rejected %lld cpu_ms %.1f\n", (long long)run.records,
           (long long)run.rc.rows_rejected, ms);
    return 0;
}
