/* trace: picks the reader for a trace kind and holds what the trace
 * readers share (state words, row counting, number parsing). */
#include "data/ingest/trace.h"

#include <errno.h>
#include <string.h>

#include "data/ingest/peekfile.h"
#include "data/ingest/trace_rec.h"

#define TRACE_PEEK 512          /* bytes looked at to tell formats apart */

static int head_first(const char *head, size_t n)
{
    size_t i = 0;
    if (n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    return i < n ? (unsigned char)head[i] : -1;
}

/* Read pf as a trace of kind; first: its first significant byte. */
static int read_kind(FILE *pf, const char *kind, int first, CpReadCtx *ctx, char *format_out,
                     size_t format_sz, CpErr *err)
{
    if (strcmp(kind, "swf") == 0) {
        snprintf(format_out, format_sz, "trace-swf");
        return trace_swf_read(pf, ctx, err);
    }
    if (strcmp(kind, "philly") == 0 && (first == '[' || first == '{')) {
        snprintf(format_out, format_sz, "trace-philly-json");
        return trace_philly_json_read(pf, ctx, err);
    }
    return trace_csv_read(pf, kind, ctx, format_out, format_sz, err);
}

int trace_read(FILE *f, const char *kind, CpReadCtx *ctx, char *format_out, size_t format_sz,
               CpErr *err)
{
    static const char *const kinds[] = {"philly", "swf", "helios", "pai", "alibaba-pod"};
    const char *path = trace_path(ctx);
    size_t k = 0;
    while (k < sizeof kinds / sizeof kinds[0] && (!kind || strcmp(kind, kinds[k]) != 0))
        k++;
    if (k == sizeof kinds / sizeof kinds[0])
        return cp_err_set(err, "unknown trace kind '%s' (expected philly, swf, helios, pai or "
                               "alibaba-pod)",
                          kind ? kind : "");
    char head[TRACE_PEEK];
    size_t n;
    FILE *pf = peekfile_open(f, head, sizeof head, &n);
    if (!pf)
        return cp_err_set(err, "%s: read error: %s", path, strerror(errno));
    int rc;
    int first = head_first(head, n);
    if (first < 0 && n < sizeof head)
        rc = cp_err_set(err, "%s:1: empty file: no %s trace records", path, kind);
    else {
        trace_censor_begin(ctx);
        rc = read_kind(pf, kind, first, ctx, format_out, format_sz, err);
        if (trace_censor_flush(ctx, rc == 0, err) < 0)
            rc = -1;
    }
    peekfile_close(pf, f);
    return rc;
}
