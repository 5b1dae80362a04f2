/* import trace: public cluster traces through the shared job pipeline. */
#include <string.h>

#include "data/import.h"
#include "data/trace.h"

static int read_trace(FILE *f, CpReadCtx *rc, const void *arg, char *fmt, size_t fmtsz,
                      CpErr *err)
{
    const ImportOpts *o = arg;
    return trace_read(f, o->trace_kind, rc, fmt, fmtsz, err);
}

int import_trace(Store *st, const char *path, const ImportOpts *o, ImportResult *res, CpErr *err)
{
    if (!o->trace_kind || !o->trace_kind[0])
        return cp_err_set(err, "import trace: --kind philly|swf|helios|pai|alibaba-pod is required");
    return import_jobs_with(st, "trace", path, o, read_trace, o, res, err);
}
