/* empty: what the database lacks, and the command that adds it (empty.h). */
#include "tui/empty.h"

#include <string.h>

#include "tui/plan.h"

int tui_cpu_only(const TuiModel *m)
{
    double cpu = 0;
    for (int u = 0; u < m->nusers; u++) {
        if (m->users[u].gpu_h > 0)
            return 0;
        cpu += m->users[u].cpu_h_12m;
    }
    return cpu > 0 || strncmp(m->unit, "CPUs", 4) == 0;
}

unsigned tui_missing(const TuiState *s)
{
    const TuiModel *m = s->model;
    unsigned miss = 0;
    if (!m->roster)
        miss |= TUI_MISS_ROSTER;
    int inv = 0;
    for (int k = 0; k < m->nclusters; k++)
        inv |= m->clusters[k].has_inventory;
    if (!inv)
        miss |= TUI_MISS_INVENTORY;
    if (tui_cpu_only(m))
        miss |= TUI_MISS_GPU;
    if (!s->plan && !s->plan_pending)
        miss |= TUI_MISS_PLAN;
    return miss;
}

static const struct {
    unsigned bit;
    const char *line;
} lines[] = {
    {TUI_MISS_PLAN, "No projection yet (too few jobs or months): capplan import sacct FILE"},
    {TUI_MISS_ROSTER, "No roster (groups are accounts): capplan import roster FILE"},
    {TUI_MISS_INVENTORY, "No inventory (capacity unknown, nothing short): capplan import inventory "
                         "FILE"},
    {TUI_MISS_GPU, "CPU-only history, figures in CPUs: for GPUs, capplan import sacct FILE"},
};

int tui_missing_lines(const TuiState *s, unsigned which, const char **out, int max)
{
    unsigned miss = tui_missing(s) & which;
    int n = 0;
    for (size_t i = 0; i < sizeof lines / sizeof *lines && n < max; i++)
        if (miss & lines[i].bit)
            out[n++] = lines[i].line;
    return n;
}
